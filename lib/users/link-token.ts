import { createHash, randomBytes } from "node:crypto";

// The token of a one-time link (a team invite, a password reset): 256 random bits, shown
// once in the link; only its SHA-256 digest is stored, so the table alone opens nothing.

/** A new link token (43 characters of base64url). */
export const newLinkToken = () => randomBytes(32).toString("base64url");

/** The digest stored for a link token, and looked up when the link is opened. */
export const digestToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");
