import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, test } from "node:test";
import fc from "fast-check";
import { WPFORMS_EXAMPLE_FORM, WPFORMS_EXAMPLE_JSON, WPFORMS_KNOWN_SIGNATURE, wpformsHeaders } from "./fixtures/wpforms-example";
import { verifyWPFormsSignature, WPFORMS_TOLERANCE_MS } from "./signatures";
import { formTree, phpJson, phpString } from "./wpforms-form";

// WPForms' Webhooks addon signs as its code does (src/Process.php, generate_signature):
// X-WPForms-Webhook-Signature "t=<unix seconds>,v=<hex HMAC-SHA256 of '<t>.<body>'>", the body
// being the JSON sent, or for a form the JSON of the same keys (wp_json_encode). The rest of
// signatures' tests: signatures.test.ts.

const JSON_TYPE = "application/json";
const FORM_TYPE = "application/x-www-form-urlencoded";
const { secret: SECRET, at: NOW } = WPFORMS_KNOWN_SIGNATURE;
const SECONDS = NOW.getTime() / 1000;
const header = (signed: Uint8Array | string, secret = SECRET, seconds: number | string = SECONDS) =>
  wpformsHeaders(signed, secret, seconds)["X-WPForms-Webhook-Signature"]!;
const verify = (bytes: Uint8Array | string, mediaType: string, signature: string | null, secret = SECRET, now = NOW) =>
  verifyWPFormsSignature({ bytes: new Uint8Array(Buffer.from(bytes)), mediaType }, signature, secret, now);

describe("verifyWPFormsSignature", () => {
  test("the known answer PHP's hash_hmac gave verifies both the JSON and the form body (both sign the same JSON)", () => {
    assert.equal(verify(WPFORMS_EXAMPLE_JSON, JSON_TYPE, WPFORMS_KNOWN_SIGNATURE.header), true);
    assert.equal(verify(WPFORMS_EXAMPLE_FORM, FORM_TYPE, WPFORMS_KNOWN_SIGNATURE.header), true);
    assert.match(WPFORMS_KNOWN_SIGNATURE.header, /^t=\d{10},v=[0-9a-f]{64}$/);
  });

  test("a timestamp up to 5 minutes away either way is accepted (the addon signs like Stripe: 5 minutes)", () => {
    assert.equal(WPFORMS_TOLERANCE_MS, 300_000);
    for (const skew of [-300, 300, -60])
      assert.equal(verify(WPFORMS_EXAMPLE_JSON, JSON_TYPE, header(WPFORMS_EXAMPLE_JSON, SECRET, SECONDS + skew)), true);
  });

  const json = WPFORMS_EXAMPLE_JSON;
  const right = header(json);
  const refused: [string, () => boolean][] = [
    [
      "a JSON body changed by one byte",
      () => {
        const changed = Buffer.from(json);
        changed[changed.indexOf("Ren")] = "r".charCodeAt(0);
        return verify(changed, JSON_TYPE, right);
      },
    ],
    [
      "a form body changed by one byte",
      () => verify(Buffer.from(WPFORMS_EXAMPLE_FORM).toString().replace("Dupont", "Dupond"), FORM_TYPE, right),
    ],
    [
      "the same JSON re-serialised (only the bytes sent are signed)",
      () => verify(JSON.stringify(JSON.parse(json.toString())), JSON_TYPE, right),
    ],
    ["a wrong secret", () => verify(json, JSON_TYPE, right, `${SECRET}x`)],
    ["an empty secret, even with its own signature", () => verify(json, JSON_TYPE, header(json, ""), "")],
    ["a timestamp 6 minutes old, signed", () => verify(json, JSON_TYPE, header(json, SECRET, SECONDS - 360))],
    ["a timestamp 6 minutes ahead, signed", () => verify(json, JSON_TYPE, header(json, SECRET, SECONDS + 360))],
    ["the timestamp in milliseconds, signed", () => verify(json, JSON_TYPE, header(json, SECRET, SECONDS * 1000))],
    ["another timestamp than the one signed", () => verify(json, JSON_TYPE, right.replace(`t=${SECONDS}`, `t=${SECONDS + 1}`))],
    ["a missing header", () => verify(json, JSON_TYPE, null)],
    ["an empty header", () => verify(json, JSON_TYPE, "")],
    ["the signature without its timestamp", () => verify(json, JSON_TYPE, right.slice(right.indexOf(",") + 1))],
    ["the parts in the other order", () => verify(json, JSON_TYPE, `${right.split(",")[1]},${right.split(",")[0]}`)],
    ["spaces after the comma", () => verify(json, JSON_TYPE, right.replace(",", ", "))],
    ["v1= as Stripe writes it", () => verify(json, JSON_TYPE, right.replace(",v=", ",v1="))],
    [
      "the digest in capitals",
      () =>
        verify(
          json,
          JSON_TYPE,
          right.replace(/v=(.*)$/, (_, hex: string) => `v=${hex.toUpperCase()}`),
        ),
    ],
    ["a decimal timestamp, signed", () => verify(json, JSON_TYPE, header(json, SECRET, `${SECONDS}.0`))],
    [
      "the body signed without the timestamp",
      () => verify(json, JSON_TYPE, `t=${SECONDS},v=${createHmac("sha256", SECRET).update(json).digest("hex")}`),
    ],
    ["a form body signed over its own bytes", () => verify(WPFORMS_EXAMPLE_FORM, FORM_TYPE, header(WPFORMS_EXAMPLE_FORM))],
    ["a multipart body", () => verify(json, "multipart/form-data", right)],
    ["a form body that is not what PHP writes (a key sent twice)", () => verify("a=1&a=1", FORM_TYPE, header('{"a":"1"}'))],
  ];
  for (const [name, run] of refused) test(`refused: ${name}`, () => assert.equal(run(), false));

  test("any JSON body, secret and moment within 5 minutes: verified; any changed byte is not (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1 }),
        fc.string({ minLength: 1 }),
        fc.integer({ min: -300, max: 300 }),
        fc.nat(),
        (bytes, secret, skew, i) => {
          const raw = Buffer.from(bytes);
          const signed = header(raw, secret, SECONDS + skew);
          assert.equal(verify(raw, JSON_TYPE, signed, secret), true);
          const changed = Buffer.from(raw);
          changed[i % changed.length] = changed[i % changed.length]! ^ 0x01;
          assert.equal(verify(changed, JSON_TYPE, signed, secret), false);
        },
      ),
      { numRuns: 300 },
    );
  });

  test("any header text never throws", () => {
    fc.assert(
      fc.property(
        fc.string(),
        (text) => verify(json, JSON_TYPE, text) === false && verify(WPFORMS_EXAMPLE_FORM, FORM_TYPE, text) === false,
      ),
      { numRuns: 300 },
    );
  });
});

// phpJson must write what PHP's json_encode wrote; each expected text below is PHP 8.2's output.
describe("the JSON WPForms signs for a form body (phpJson, phpString)", () => {
  test("the example's form rebuilds to the example's JSON, byte for byte", () => {
    assert.equal(phpJson(formTree(WPFORMS_EXAMPLE_FORM)!), WPFORMS_EXAMPLE_JSON.toString("utf8"));
  });

  test("texts escaped as json_encode escapes them (PHP 8.2's output)", () => {
    const cases: [string, string][] = [
      ["a/b", '"a\\/b"'],
      ['"q" \\ x', '"\\"q\\" \\\\ x"'],
      ["tab\tnl\ncr\rbs\bff\f", '"tab\\tnl\\ncr\\rbs\\bff\\f"'],
      ["\u0001\u001f\u007f", '"\\u0001\\u001f\u007f"'],
      ["é€😀", '"\\u00e9\\u20ac\\ud83d\\ude00"'],
      ["<>&'", `"<>&'"`],
      ["", '""'],
    ];
    for (const [text, php] of cases) assert.equal(phpString(text), php);
  });

  test("a form as http_build_query wrote it → json_encode of the same array (PHP 8.2's output)", () => {
    const form = "k=a+b%7E%2A-_.%21%27%28%29%2F%C3%A9&e=&l%5B0%5D=x&l%5B1%5D=y&n%5Bvalue%5D=v&n%5Bunix%5D=5";
    assert.equal(phpJson(formTree(Buffer.from(form))!), `{"k":"a b~*-_.!'()\\/\\u00e9","e":"","l":["x","y"],"n":{"value":"v","unix":5}}`);
    assert.equal(phpJson(formTree(Buffer.from("0=a&1=b"))!), '["a","b"]');
    assert.equal(phpJson(formTree(Buffer.from("1=a"))!), '{"1":"a"}');
    assert.equal(phpJson(formTree(Buffer.from(""))!), "[]");
    // A key named unix outside a Date / Time field's {value, unix} is a text, as PHP held it.
    assert.equal(phpJson(formTree(Buffer.from("unix=5&d%5Bunix%5D=5"))!), '{"unix":"5","d":{"unix":"5"}}');
    // Names nested deeper than the addon writes are not its form.
    assert.equal(formTree(Buffer.from("a%5Bb%5D%5Bc%5D%5Bd%5D=1")), null);
    assert.equal(formTree(Buffer.from(`a${"%5B%5D".repeat(6000)}=1`)), null);
  });

  test("a date the addon could not read (unix false, sent as 0) verifies against the JSON it signed", () => {
    const form = "when%5Bvalue%5D=not+a+date&when%5Bunix%5D=0&name=Ada";
    const signed = '{"when":{"value":"not a date","unix":false},"name":"Ada"}';
    assert.equal(verify(form, FORM_TYPE, header(signed)), true);
    // And a real 0 (1970-01-01) as PHP signed it.
    assert.equal(verify(form, FORM_TYPE, header('{"when":{"value":"not a date","unix":0},"name":"Ada"}')), true);
    assert.equal(verify(form, FORM_TYPE, header('{"when":{"value":"not a date","unix":"0"},"name":"Ada"}')), false);
  });

  test("any text: phpString is ASCII and reads back as the text (fast-check)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        const written = phpString(text);
        assert.match(written, /^[\x20-\x7f]*$/);
        assert.equal(JSON.parse(written), text);
      }),
      { numRuns: 500 },
    );
  });
});
