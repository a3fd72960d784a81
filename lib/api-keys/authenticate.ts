import { authError } from "../http/api-error";
import { findKeyForAuth, touchApiKey } from "./api-key-store";
import { secretMatches } from "./secret";

export type AuthenticatedKey = { keyId: string; team: { id: string; defaultPhoneCountry: string | null } };

const KEY_ID = /^[0-9a-f]{20}$/;

/**
 * Spec section 5: the X-API-Key / X-API-Secret pair identifies a team. Unknown key,
 * wrong secret and deleted key fail identically ("Invalid API key"); a key whose team
 * is gone fails with "Team ID required", told only to a caller holding the right secret.
 */
export async function authenticate(headers: Headers): Promise<AuthenticatedKey> {
  const keyId = headers.get("x-api-key")?.trim();
  const secret = headers.get("x-api-secret")?.trim();
  if (!keyId || !secret) throw authError("API key required");

  const key = KEY_ID.test(keyId) ? await findKeyForAuth(keyId) : null;
  if (!secretMatches(secret, key?.secretDigest ?? null) || !key) throw authError("Invalid API key");
  if (!key.team) throw authError("Team ID required");

  await touchApiKey(key);
  return { keyId: key.id, team: key.team };
}
