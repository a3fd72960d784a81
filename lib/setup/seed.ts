import { isUniqueViolation } from "../db/errors";
import { addMember, createTeam, findTeamBySlug } from "../teams/team-store";
import { createUser, findUserByEmail } from "../users/user-store";
import { setWorkspaceCurrency } from "../workspace/settings";

export const DEMO_TEAM_SLUG = "demo";
export const DEFAULT_DEMO_ADMIN_EMAIL = "admin@example.com";
export const DEFAULT_DEMO_ADMIN_PASSWORD = "demo-admin-password";

export type SeedResult = { email: string; password: string; createdAdmin: boolean };

/**
 * Finds a row or creates it. Several instances starting at once on an empty database
 * (a rolling deploy) all see "missing": one create wins, the others hit the unique
 * constraint and read the winner's row instead of failing their start.
 */
async function findOrCreate<T>(find: () => Promise<T | null>, create: () => Promise<T>): Promise<{ row: T; created: boolean }> {
  const existing = await find();
  if (existing) return { row: existing, created: false };
  try {
    return { row: await create(), created: true };
  } catch (error) {
    const raced = isUniqueViolation(error) ? await find() : null;
    if (!raced) throw error;
    return { row: raced, created: false };
  }
}

/**
 * Idempotent first-run setup: the workspace currency (WORKSPACE_CURRENCY, default USD),
 * a demo admin (DEMO_ADMIN_EMAIL / DEMO_ADMIN_PASSWORD) and the team "demo" it owns.
 */
export async function seed(env: NodeJS.ProcessEnv = process.env): Promise<SeedResult> {
  if (env.WORKSPACE_CURRENCY) await setWorkspaceCurrency(env.WORKSPACE_CURRENCY);
  const email = env.DEMO_ADMIN_EMAIL?.trim() || DEFAULT_DEMO_ADMIN_EMAIL;
  const password = env.DEMO_ADMIN_PASSWORD || DEFAULT_DEMO_ADMIN_PASSWORD;

  const { row: admin, created: createdAdmin } = await findOrCreate(
    () => findUserByEmail(email),
    () => createUser({ email, password, name: "Demo Admin" }),
  );
  const team = await findOrCreate(
    () => findTeamBySlug(DEMO_TEAM_SLUG),
    () => createTeam({ slug: DEMO_TEAM_SLUG, name: "Demo", ownerUserId: admin.id }),
  );
  if (!team.created) await addMember({ teamId: team.row.id, userId: admin.id, role: "owner" });
  return { email: admin.email, password, createdAdmin };
}
