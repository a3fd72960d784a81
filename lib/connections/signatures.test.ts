import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, test } from "node:test";
import fc from "fast-check";
import { TALLY_EXAMPLE_FILE, tallyExample, tallyExampleBody } from "./fixtures/tally-example";
import { TYPEFORM_EXAMPLE_FILE, typeformExampleBody } from "./fixtures/typeform-example";
import { WEBFLOW_EXAMPLE_FILE, webflowExampleBody, webflowHeaders } from "./fixtures/webflow-example";
import { equalText, verifyTallySignature, verifyTypeformSignature, verifyWebflowSignature } from "./signatures";

// Framer's and WPForms' signatures have files of their own (this one is near its 300 lines):
// signatures-framer.test.ts, signatures-wpforms.test.ts.

// Tally signs as its documentation shows (https://tally.so/help/webhooks, "Add a signing
// secret"): createHmac('sha256', signingSecret).update(JSON.stringify(payload)).digest('base64').
const SECRET = "tally-signing-secret-for-tests";
const tallySigns = (payload: unknown, secret = SECRET) => createHmac("sha256", secret).update(JSON.stringify(payload)).digest("base64");

describe("verifyTallySignature", () => {
  const body = tallyExampleBody();
  const signature = tallySigns(tallyExample());

  test("the documented example, signed as Tally's example signs it, is verified over the bytes sent", () => {
    assert.equal(signature.length, 44);
    assert.equal(verifyTallySignature(body, signature, SECRET), true);
  });

  test("the same payload sent pretty-printed: signed over its bytes, or over JSON.stringify as Tally's example signs", () => {
    const pretty = TALLY_EXAMPLE_FILE;
    assert.equal(verifyTallySignature(pretty, createHmac("sha256", SECRET).update(pretty).digest("base64"), SECRET), true);
    assert.equal(verifyTallySignature(pretty, signature, SECRET), true);
    assert.equal(verifyTallySignature(Buffer.concat([body, Buffer.from("\n")]), signature, SECRET), true, "a trailing line break");
    assert.equal(verifyTallySignature(pretty, tallySigns(tallyExample(), "another secret"), SECRET), false);
  });

  const refused: [string, () => boolean][] = [
    [
      "a body changed by one byte",
      () => {
        const changed = Buffer.from(body);
        changed[changed.indexOf("newsletter")] = "N".charCodeAt(0);
        return verifyTallySignature(changed, signature, SECRET);
      },
    ],
    [
      "a body with one byte more in a value",
      () => verifyTallySignature(Buffer.from(body.toString("utf8").replace("newsletter", "newsletters")), signature, SECRET),
    ],
    ["a wrong secret", () => verifyTallySignature(body, signature, `${SECRET}x`)],
    ["an empty secret, even with its own signature", () => verifyTallySignature(body, tallySigns(tallyExample(), ""), "")],
    ["a missing header", () => verifyTallySignature(body, null, SECRET)],
    ["an empty header", () => verifyTallySignature(body, "", SECRET)],
    [
      "a header of another length (the signature without its padding)",
      () => verifyTallySignature(body, signature.replace(/=+$/, ""), SECRET),
    ],
    ["a header of another length (with a prefix)", () => verifyTallySignature(body, `sha256=${signature}`, SECRET)],
    ["a header of the same length, one character changed", () => verifyTallySignature(body, flipFirst(signature), SECRET)],
    ["the hex form of the right digest", () => verifyTallySignature(body, createHmac("sha256", SECRET).update(body).digest("hex"), SECRET)],
    ["a header of multi-byte characters as long as a signature", () => verifyTallySignature(body, "é".repeat(44), SECRET)],
  ];
  for (const [name, run] of refused) test(`refused: ${name}`, () => assert.equal(run(), false));

  test("any body and secret: the signature Tally computes is verified, any changed byte is not (fast-check)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1 }), fc.string({ minLength: 1 }), fc.nat(), (bytes, secret, at) => {
        const raw = Buffer.from(bytes);
        const signed = createHmac("sha256", secret).update(raw).digest("base64");
        assert.equal(verifyTallySignature(raw, signed, secret), true);
        const changed = Buffer.from(raw);
        const i = at % changed.length;
        changed[i] = changed[i]! ^ 0x01;
        assert.equal(verifyTallySignature(changed, signed, secret), false);
      }),
      { numRuns: 300 },
    );
  });
});

// Typeform signs as its documentation shows (https://www.typeform.com/developers/webhooks/
// secure-your-webhooks/): "sha256=" + base64(HMAC-SHA256(secret, the entire received payload)).
const TYPEFORM_SECRET = "typeform-secret-for-tests";
const typeformSigns = (bytes: Uint8Array | string, secret = TYPEFORM_SECRET) =>
  `sha256=${createHmac("sha256", secret).update(bytes).digest("base64")}`;

describe("verifyTypeformSignature", () => {
  const body = typeformExampleBody();
  const signature = typeformSigns(body);

  test("the documented example, signed over the exact bytes sent (compact or pretty-printed), is verified", () => {
    assert.equal(signature.length, 7 + 44);
    assert.equal(verifyTypeformSignature(body, signature, TYPEFORM_SECRET), true);
    assert.equal(verifyTypeformSignature(TYPEFORM_EXAMPLE_FILE, typeformSigns(TYPEFORM_EXAMPLE_FILE), TYPEFORM_SECRET), true);
  });

  const refused: [string, () => boolean][] = [
    [
      "a body changed by one byte",
      () => {
        const changed = Buffer.from(body);
        changed[changed.indexOf("laura")] = "L".charCodeAt(0);
        return verifyTypeformSignature(changed, signature, TYPEFORM_SECRET);
      },
    ],
    [
      "the same JSON with other spacing (only the bytes sent are signed)",
      () => verifyTypeformSignature(TYPEFORM_EXAMPLE_FILE, signature, TYPEFORM_SECRET),
    ],
    ["a wrong secret", () => verifyTypeformSignature(body, signature, `${TYPEFORM_SECRET}x`)],
    ["an empty secret, even with its own signature", () => verifyTypeformSignature(body, typeformSigns(body, ""), "")],
    ["a missing header", () => verifyTypeformSignature(body, null, TYPEFORM_SECRET)],
    ["an empty header", () => verifyTypeformSignature(body, "", TYPEFORM_SECRET)],
    ["the digest without the sha256= prefix", () => verifyTypeformSignature(body, signature.slice(7), TYPEFORM_SECRET)],
    ["another prefix", () => verifyTypeformSignature(body, signature.replace("sha256=", "sha1="), TYPEFORM_SECRET)],
    ["the prefix in capitals", () => verifyTypeformSignature(body, signature.replace("sha256=", "SHA256="), TYPEFORM_SECRET)],
    ["the prefix alone", () => verifyTypeformSignature(body, "sha256=", TYPEFORM_SECRET)],
    [
      "a digest of another length (without its padding)",
      () => verifyTypeformSignature(body, signature.replace(/=+$/, ""), TYPEFORM_SECRET),
    ],
    [
      "a digest of the same length, one character changed",
      () => verifyTypeformSignature(body, `sha256=${flipFirst(signature.slice(7))}`, TYPEFORM_SECRET),
    ],
    [
      "the hex form of the right digest",
      () => verifyTypeformSignature(body, `sha256=${createHmac("sha256", TYPEFORM_SECRET).update(body).digest("hex")}`, TYPEFORM_SECRET),
    ],
    [
      "Tally's form of the signature (no prefix)",
      () => verifyTypeformSignature(body, createHmac("sha256", TYPEFORM_SECRET).update(body).digest("base64"), TYPEFORM_SECRET),
    ],
  ];
  for (const [name, run] of refused) test(`refused: ${name}`, () => assert.equal(run(), false));

  test("any body and secret: Typeform's signature is verified, any changed byte is not (fast-check)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1 }), fc.string({ minLength: 1 }), fc.nat(), (bytes, secret, at) => {
        const raw = Buffer.from(bytes);
        const signed = typeformSigns(raw, secret);
        assert.equal(verifyTypeformSignature(raw, signed, secret), true);
        const changed = Buffer.from(raw);
        const i = at % changed.length;
        changed[i] = changed[i]! ^ 0x01;
        assert.equal(verifyTypeformSignature(changed, signed, secret), false);
      }),
      { numRuns: 300 },
    );
  });

  test("any header text never throws", () => {
    fc.assert(
      fc.property(fc.string(), (header) => verifyTypeformSignature(body, header, TYPEFORM_SECRET) === false),
      { numRuns: 300 },
    );
  });
});

// Webflow signs as its documentation shows (https://developers.webflow.com/data/docs/
// working-with-webhooks, "Validating request signatures"): hex HMAC-SHA256(secret,
// `<x-webflow-timestamp>:<body>`), the timestamp in milliseconds; older than 5 minutes is refused.
const WEBFLOW_SECRET = "webflow-webhook-secret-for-tests";
const NOW = new Date("2025-06-01T12:00:00.000Z");
const MINUTE = 60_000;

describe("verifyWebflowSignature", () => {
  const body = webflowExampleBody();
  const at = NOW.getTime();
  const signed = (headers: Record<string, string>) => new Headers(headers);
  const verify = (raw: Uint8Array, headers: Record<string, string>, secret = WEBFLOW_SECRET, now = NOW) =>
    verifyWebflowSignature(raw, signed(headers), secret, now);

  test("the documented example, signed with the timestamp now, is verified; hex, 64 characters", () => {
    const headers = webflowHeaders(body, WEBFLOW_SECRET, at);
    assert.match(headers["x-webflow-signature"]!, /^[0-9a-f]{64}$/);
    assert.equal(verify(body, headers), true);
  });

  test("sent pretty-printed: signed over its bytes, or over JSON.stringify as Webflow's examples sign", () => {
    assert.equal(verify(WEBFLOW_EXAMPLE_FILE, webflowHeaders(WEBFLOW_EXAMPLE_FILE, WEBFLOW_SECRET, at)), true);
    assert.equal(verify(WEBFLOW_EXAMPLE_FILE, webflowHeaders(body, WEBFLOW_SECRET, at)), true);
  });

  test("a timestamp up to 5 minutes away either way is accepted (Webflow: refuse older than 5 minutes)", () => {
    for (const t of [at - 5 * MINUTE, at + 5 * MINUTE, at - 4 * MINUTE])
      assert.equal(verify(body, webflowHeaders(body, WEBFLOW_SECRET, t)), true);
  });

  const right = webflowHeaders(body, WEBFLOW_SECRET, at);
  const refused: [string, () => boolean][] = [
    [
      "a body changed by one byte",
      () => {
        const changed = Buffer.from(body);
        changed[changed.indexOf("Zaphod")] = "z".charCodeAt(0);
        return verify(changed, right);
      },
    ],
    ["a wrong secret", () => verify(body, right, `${WEBFLOW_SECRET}x`)],
    ["an empty secret, even with its own signature", () => verify(body, webflowHeaders(body, "", at), "")],
    ["a timestamp 6 minutes old, signed", () => verify(body, webflowHeaders(body, WEBFLOW_SECRET, at - 6 * MINUTE))],
    ["a timestamp 6 minutes ahead, signed", () => verify(body, webflowHeaders(body, WEBFLOW_SECRET, at + 6 * MINUTE))],
    ["the timestamp in seconds, signed", () => verify(body, webflowHeaders(body, WEBFLOW_SECRET, Math.floor(at / 1000)))],
    ["another timestamp than the one signed", () => verify(body, { ...right, "x-webflow-timestamp": String(at + 1) })],
    ["a missing timestamp", () => verify(body, { "x-webflow-signature": right["x-webflow-signature"]! })],
    ["a missing signature", () => verify(body, { "x-webflow-timestamp": String(at) })],
    ["no headers", () => verify(body, {})],
    ["a timestamp that is not a number, signed", () => verify(body, webflowHeaders(body, WEBFLOW_SECRET, "soon"))],
    ["a decimal timestamp, signed", () => verify(body, webflowHeaders(body, WEBFLOW_SECRET, `${at}.0`))],
    ["the signature in capitals", () => verify(body, { ...right, "x-webflow-signature": right["x-webflow-signature"]!.toUpperCase() })],
    [
      "the base64 form of the right digest",
      () =>
        verify(body, {
          ...right,
          "x-webflow-signature": createHmac("sha256", WEBFLOW_SECRET).update(`${at}:`).update(body).digest("base64"),
        }),
    ],
    [
      "the body signed without the timestamp",
      () => verify(body, { ...right, "x-webflow-signature": createHmac("sha256", WEBFLOW_SECRET).update(body).digest("hex") }),
    ],
  ];
  for (const [name, run] of refused) test(`refused: ${name}`, () => assert.equal(run(), false));

  test("any body, secret and moment within 5 minutes: verified; any changed byte is not (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1 }),
        fc.string({ minLength: 1 }),
        fc.integer({ min: -5 * MINUTE, max: 5 * MINUTE }),
        fc.nat(),
        (bytes, secret, skew, i) => {
          const raw = Buffer.from(bytes);
          const headers = webflowHeaders(raw, secret, at + skew);
          assert.equal(verify(raw, headers, secret), true);
          const changed = Buffer.from(raw);
          changed[i % changed.length] = changed[i % changed.length]! ^ 0x01;
          assert.equal(verify(changed, headers, secret), false);
        },
      ),
      { numRuns: 300 },
    );
  });

  test("any header texts never throw", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (timestamp, signature) => {
        const headers = new Headers();
        try {
          headers.set("x-webflow-timestamp", timestamp);
          headers.set("x-webflow-signature", signature);
        } catch {
          return; // not a valid header value: HTTP never delivers it
        }
        assert.equal(verifyWebflowSignature(body, headers, WEBFLOW_SECRET, NOW), false);
      }),
      { numRuns: 300 },
    );
  });
});

describe("equalText", () => {
  test("equal texts only; different lengths never reach the comparison (which would throw)", () => {
    assert.equal(equalText("abc", "abc"), true);
    assert.equal(equalText("abc", "abd"), false);
    assert.equal(equalText("abc", "abcd"), false);
    assert.equal(equalText("", ""), true);
  });
});

function flipFirst(text: string): string {
  return (text[0] === "A" ? "B" : "A") + text.slice(1);
}
