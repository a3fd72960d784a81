import { createHash, createHmac, hkdfSync, randomUUID, timingSafeEqual } from "node:crypto";
import { encryptionKey } from "../api-keys/secret-box";

// The double opt-in link's token (docs/consent.md "Double opt-in"): `<id>.<signature>`, the
// confirmation's id signed (HMAC-SHA-256) with a key derived from the deployment's encryption
// key, so every instance can check it and nobody without that key can make one. The token is
// never stored: the email job carries only the id and signs it when it sends; the row keeps
// the token's SHA-256 (tokenHash), the lookup. A forged token fails the signature before any
// database read.

let signingKey: Buffer | undefined;

function key(): Buffer {
  signingKey ??= Buffer.from(hkdfSync("sha256", encryptionKey(), Buffer.alloc(0), "lead-intake consent confirmation link", 32));
  return signingKey;
}

export const newConfirmationId = () => `cc_${randomUUID().replaceAll("-", "")}`;

const ID = /^cc_[0-9a-f]{32}$/;

const signatureOf = (id: string) => createHmac("sha256", key()).update(id).digest("base64url");

/** The link's token for a confirmation id. */
export function confirmationToken(id: string): string {
  return `${id}.${signatureOf(id)}`;
}

/** What the database keeps of a token: its SHA-256 (hex). */
export function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** The confirmation id a token names when its signature is this deployment's; null for a forged or malformed token. */
export function verifyConfirmationToken(token: string): string | null {
  if (token.length > 200) return null;
  const dot = token.indexOf(".");
  const id = token.slice(0, dot);
  if (dot < 0 || !ID.test(id)) return null;
  const given = Buffer.from(token.slice(dot + 1), "utf8");
  const expected = Buffer.from(signatureOf(id), "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}
