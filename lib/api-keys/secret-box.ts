import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { env } from "../env";
import { persistentSecret } from "../setup/runtime-secrets";

// AES-256-GCM box for secrets that must stay recoverable until their first copy.
// The key comes from SECRET_ENCRYPTION_KEY, else from DATA_DIR/secret.key, which
// the first process to need it creates (mode 0600).

const VERSION = "v1";
export const ENCRYPTION_KEY_FILE = "secret.key";
let cachedKey: Buffer | undefined;

function decodeKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64");
  if (key.length !== 32) throw new Error("SECRET_ENCRYPTION_KEY must be 32 bytes, base64 or hex encoded");
  return key;
}

/** Loads (or on first use creates) the encryption key. */
export function encryptionKey(): Buffer {
  if (cachedKey) return cachedKey;
  const fromEnv = env().SECRET_ENCRYPTION_KEY;
  if (fromEnv) return (cachedKey = decodeKey(fromEnv));

  return (cachedKey = decodeKey(persistentSecret(env().DATA_DIR, ENCRYPTION_KEY_FILE)));
}

/** Encrypts `plaintext`, bound to `context` (the key id) so ciphertexts cannot be swapped between rows. */
export function seal(plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", encryptionKey(), iv);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64"), cipher.getAuthTag().toString("base64"), body.toString("base64")].join(".");
}

export function open(sealed: string, context: string): string {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || !body) throw new Error("Unknown secret box format");
  const decipher = createDecipheriv("aes-256-gcm", encryptionKey(), Buffer.from(iv, "base64"));
  decipher.setAAD(Buffer.from(context, "utf8"));
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64")), decipher.final()]).toString("utf8");
}
