import { createHmac, hkdfSync } from "node:crypto";
import { encryptionKey } from "../api-keys/secret-box";

// The suppression list's key (docs/consent.md "Withdrawal and the suppression list"): an
// address is kept only as HMAC-SHA-256 under a key derived (HKDF) from the deployment's
// encryption key, as the confirmation link's signing key is (confirmation-token.ts), with its
// own label. Keyed, so the table alone does not let anyone test guessed addresses: a plain
// SHA-256 of an address is found again by hashing a list of addresses.

let hashKey: Buffer | undefined;

function key(): Buffer {
  hashKey ??= Buffer.from(hkdfSync("sha256", encryptionKey(), Buffer.alloc(0), "lead-intake consent suppression list", 32));
  return hashKey;
}

/** An address as the list compares it: spaces around it trimmed, in lower case. */
export const normalisedEmail = (email: string) => email.trim().toLowerCase();

/** What the list keeps of an address: its keyed hash (hex). */
export function suppressionHash(email: string): string {
  return createHmac("sha256", key()).update(normalisedEmail(email)).digest("hex");
}
