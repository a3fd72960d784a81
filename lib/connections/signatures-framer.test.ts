import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { describe, test } from "node:test";
import fc from "fast-check";
import { FRAMER_EXAMPLE_FILE, FRAMER_SUBMISSION_ID, framerExampleBody, framerHeaders } from "./fixtures/framer-example";
import { verifyFramerSignature } from "./signatures";

// Framer signs as its page says (https://www.framer.com/help/articles/framer-form-webhook-setup/,
// "How to secure webhook destinations"): Framer-Signature "sha256=" + hex HMAC-SHA256 of the
// form data and the submission id (Framer-Webhook-Submission-Id), with the secret set in the
// webhook (at least 32 characters). The rest of signatures' tests: signatures.test.ts.

const SECRET = "framer-webhook-secret-at-least-32-chars";

describe("verifyFramerSignature", () => {
  const body = framerExampleBody();
  const right = framerHeaders(body, SECRET);
  const signature = right["Framer-Signature"]!;
  const verify = (raw: Uint8Array, header: string | null = signature, id: string | null = FRAMER_SUBMISSION_ID, secret = SECRET) =>
    verifyFramerSignature(raw, header, id, secret);

  test("the example signed as Framer signs is verified: `sha256=` and 64 hex digits", () => {
    assert.match(signature, /^sha256=[0-9a-f]{64}$/);
    assert.equal(verify(body), true);
  });

  test("a known answer, computed by PHP's hash_hmac('sha256', $body . $submissionId, $secret), is verified", () => {
    const known = "sha256=ce2fc7c3c1244c537a42c1ae62da08bccb94098b01fc0f8f54959db2652a2180";
    assert.equal(verify(body, known), true);
  });

  test("sent pretty-printed, the bytes sent are what is signed", () => {
    assert.equal(verify(FRAMER_EXAMPLE_FILE, framerHeaders(FRAMER_EXAMPLE_FILE, SECRET)["Framer-Signature"]), true);
    assert.equal(verify(FRAMER_EXAMPLE_FILE), false);
  });

  const hex = (data: Uint8Array | string) => createHmac("sha256", SECRET).update(data).digest("hex");
  const refused: [string, () => boolean][] = [
    [
      "a body changed by one byte",
      () => {
        const changed = Buffer.from(body);
        changed[changed.indexOf("Ada")] = "a".charCodeAt(0);
        return verify(changed);
      },
    ],
    ["another submission id than the one signed", () => verify(body, signature, "0fbbb90e-564b-4870-ac8b-78f9bc4e44a7")],
    ["a wrong secret", () => verify(body, signature, FRAMER_SUBMISSION_ID, `${SECRET}x`)],
    [
      "an empty secret, even with its own signature",
      () => verify(body, framerHeaders(body, "")["Framer-Signature"], FRAMER_SUBMISSION_ID, ""),
    ],
    ["a missing signature", () => verify(body, null)],
    ["a missing submission id (signed without one)", () => verify(body, `sha256=${hex(body)}`, null)],
    ["an empty submission id (signed without one)", () => verify(body, `sha256=${hex(body)}`, "")],
    ["the body signed without the submission id", () => verify(body, `sha256=${hex(body)}`)],
    [
      "the submission id signed before the body",
      () => verify(body, `sha256=${hex(Buffer.concat([Buffer.from(FRAMER_SUBMISSION_ID), body]))}`),
    ],
    ["the digest without its sha256= prefix", () => verify(body, signature.slice(7))],
    ["the prefix in capitals", () => verify(body, signature.replace("sha256=", "SHA256="))],
    ["the digest in capitals", () => verify(body, `sha256=${signature.slice(7).toUpperCase()}`)],
    ["the prefix alone", () => verify(body, "sha256=")],
    ["the base64 form of the right digest", () => verify(body, `sha256=${Buffer.from(signature.slice(7), "hex").toString("base64")}`)],
    ["a digest one character short", () => verify(body, signature.slice(0, -1))],
  ];
  for (const [name, run] of refused) test(`refused: ${name}`, () => assert.equal(run(), false));

  test("any body, id and secret: Framer's signature is verified; any changed byte, or another id, is not (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1 }),
        fc.string({ minLength: 1 }),
        fc.string({ minLength: 1 }),
        fc.nat(),
        (bytes, id, secret, at) => {
          const raw = Buffer.from(bytes);
          const header = framerHeaders(raw, secret, id)["Framer-Signature"]!;
          assert.equal(verifyFramerSignature(raw, header, id, secret), true);
          const changed = Buffer.from(raw);
          changed[at % changed.length] = changed[at % changed.length]! ^ 0x01;
          assert.equal(verifyFramerSignature(changed, header, id, secret), false);
          assert.equal(verifyFramerSignature(raw, header, `${id}x`, secret), false);
        },
      ),
      { numRuns: 300 },
    );
  });

  test("any header texts never throw", () => {
    fc.assert(
      fc.property(fc.option(fc.string(), { nil: null }), fc.option(fc.string(), { nil: null }), (header, id) => {
        assert.equal(verifyFramerSignature(body, header, id, SECRET), false);
      }),
      { numRuns: 300 },
    );
  });
});
