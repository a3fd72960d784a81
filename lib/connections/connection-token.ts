import { createHash, randomBytes } from "node:crypto";

// A connection's URL token (docs/connections.md "The URL"): 128 random bits, base64url,
// after "c_" so it is told apart from a form id or a key in a log. It is the connection's
// credential for builders that cannot sign, so only its SHA-256 digest is stored (like an
// API secret's) and the URL is shown once, when it is made or rolled.

const PREFIX = "c_";
const TOKEN = /^c_[A-Za-z0-9_-]{22}$/;

export function generateConnectionToken(): string {
  return `${PREFIX}${randomBytes(16).toString("base64url")}`;
}

/** Whether a path segment can be a token at all: anything else is refused without a lookup. */
export const isConnectionToken = (text: string) => TOKEN.test(text);

export function tokenDigest(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** The token's last four characters, for the masked display: "…/api/connections/c_…Xy3q". */
export const tokenHint = (token: string) => token.slice(-4);

/** The path a builder posts to. */
export const connectionPath = (token: string) => `/api/connections/${token}`;

/** A signing secret we generate for builders that let the user paste one (Tally, Typeform, …): 256 bits. */
export function generateSigningSecret(): string {
  return randomBytes(32).toString("base64url");
}

/** The secret box's context of a connection's signing secret: bound to its row. */
export const signingSecretContext = (connectionId: string) => `connection:${connectionId}`;
