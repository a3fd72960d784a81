import type { RawField } from "../http/read-body";
import { db } from "../db/client";
import { createTeam, type Team } from "../teams/team-store";
import { createLead } from "./create-lead";
import { parseLeadInput } from "./parse-lead-input";

// Shared setup of createLead's tests (create-lead-*.test.ts): teams, and a create as the
// endpoint does it, read back with its source. Not a test file itself; each test file calls
// useTestDatabase() before using any of this.

let teamCount = 0;
export const makeTeam = (defaultPhoneCountry: string | null = null) =>
  createTeam({ slug: `team-${++teamCount}`, name: `Team ${teamCount}`, defaultPhoneCountry });

/** What the endpoint does after authentication: parse the fields, then create. */
export async function create(team: Team, fields: RawField[], apiKeyId: string | null = "0123456789abcdef0123") {
  const result = await createLead({ team, apiKeyId, input: parseLeadInput(fields) });
  const lead = await db().lead.findUniqueOrThrow({
    where: { id: result.leadId },
    include: { source: { select: { name: true, teamId: true } } },
  });
  return { ...result, lead };
}
