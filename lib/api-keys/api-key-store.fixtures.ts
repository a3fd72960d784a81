import { db } from "../db/client";
import { createTeam } from "../teams/team-store";

// Shared setup of the API key store's tests (api-key-*.test.ts): teams, users, and a key's
// row and pending ciphertext as stored. Not a test file itself; each test file calls
// useTestDatabase() before using any of this.

let teamCount = 0;
export const makeTeam = () => createTeam({ slug: `keys-${++teamCount}`, name: `Keys ${teamCount}` });
export const makeUser = (email: string) => db().user.create({ data: { email, passwordHash: "x" }, select: { id: true } });
export const keyRow = (keyId: string) => db().apiKey.findUniqueOrThrow({ where: { id: keyId } });
export const pendingCiphertext = async (keyId: string) =>
  (await db().pendingSecret.findUnique({ where: { apiKeyId: keyId } }))?.ciphertext ?? null;
