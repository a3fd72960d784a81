import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

export const SECRET_PREFIX = "team_";
const SECRET_BODY_LENGTH = 40; // 40 base62 characters ≈ 238 bits of entropy
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const DIGEST_ALGORITHM = "sha256";

/** Uniform random base62 text from the CSPRNG (rejection sampling, no modulo bias). */
function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** The public key id: 20 lowercase hex characters. */
export function generateKeyId(): string {
  return randomBytes(10).toString("hex");
}

export function generateSecret(): string {
  return SECRET_PREFIX + randomBase62(SECRET_BODY_LENGTH);
}

// The secret carries ≥190 bits of entropy, so a fast digest is safe to store and a
// password KDF would only slow the hot path (see docs/security.md "Secrets").
export function digestSecret(secret: string): string {
  return createHash(DIGEST_ALGORITHM).update(secret, "utf8").digest("hex");
}

// Used when the key id is unknown, so a miss costs the same work as a hit.
const DUMMY_DIGEST = digestSecret(`${SECRET_PREFIX}not-a-real-secret`);

/** Constant-time check of a presented secret against a stored digest (or none). */
export function secretMatches(presented: string, storedDigest: string | null): boolean {
  const expected = Buffer.from(storedDigest ?? DUMMY_DIGEST, "hex");
  const actual = Buffer.from(digestSecret(presented), "hex");
  return expected.length === actual.length && timingSafeEqual(expected, actual) && storedDigest !== null;
}

/** team_ + the first eight characters + asterisks for the rest, same length as the secret. */
export function maskSecret(prefix8: string): string {
  return `${SECRET_PREFIX}${prefix8}${"*".repeat(SECRET_BODY_LENGTH - prefix8.length)}`;
}

export function secretPrefix(secret: string): string {
  return secret.slice(SECRET_PREFIX.length, SECRET_PREFIX.length + 8);
}
