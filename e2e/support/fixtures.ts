import { randomBytes } from "node:crypto";
import { createApiKey, type NewApiKey } from "../../lib/api-keys/api-key-store";
import { createTeam, type Team } from "../../lib/teams/team-store";

// Test data made through the real service functions, on the same database file as
// the server under test (playwright.config.ts points both at it). Names are unique
// so tests never share state.

export function uniqueSlug(prefix = "t"): string {
  return `${prefix}-${randomBytes(5).toString("hex")}`;
}

export async function newTeam(options: { defaultPhoneCountry?: string } = {}): Promise<Team> {
  const slug = uniqueSlug();
  return createTeam({ slug, name: `Team ${slug}`, defaultPhoneCountry: options.defaultPhoneCountry });
}

export async function newTeamWithKey(options: { defaultPhoneCountry?: string } = {}): Promise<{ team: Team; key: NewApiKey }> {
  const team = await newTeam(options);
  return { team, key: await createApiKey({ teamId: team.id, description: "e2e" }) };
}

export function authHeaders(key: NewApiKey): Record<string, string> {
  return { "X-API-Key": key.keyId, "X-API-Secret": key.secret };
}

export const CREATE_LEAD = "/api/method/crm.api.leads.create_lead";

/** The shared server's address, for tests that need plain fetch or sockets (set by playwright.config.ts). */
export const BASE_URL = `http://127.0.0.1:${process.env.E2E_PORT}`;
