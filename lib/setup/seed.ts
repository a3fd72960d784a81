import { addMember, createTeam, findTeamBySlug } from "../teams/team-store";
import { createUser, findUserByEmail } from "../users/user-store";
import { setWorkspaceCurrency } from "../workspace/settings";

export const DEMO_TEAM_SLUG = "demo";
export const DEFAULT_DEMO_ADMIN_EMAIL = "admin@example.com";
export const DEFAULT_DEMO_ADMIN_PASSWORD = "demo-admin-password";

export type SeedResult = { email: string; password: string; createdAdmin: boolean };

/**
 * Idempotent first-run setup: the workspace currency (WORKSPACE_CURRENCY, default USD),
 * a demo admin (DEMO_ADMIN_EMAIL / DEMO_ADMIN_PASSWORD) and the team "demo" it owns.
 */
export async function seed(env: NodeJS.ProcessEnv = process.env): Promise<SeedResult> {
  if (env.WORKSPACE_CURRENCY) await setWorkspaceCurrency(env.WORKSPACE_CURRENCY);
  const email = env.DEMO_ADMIN_EMAIL?.trim() || DEFAULT_DEMO_ADMIN_EMAIL;
  const password = env.DEMO_ADMIN_PASSWORD || DEFAULT_DEMO_ADMIN_PASSWORD;

  const existing = await findUserByEmail(email);
  const admin = existing ?? (await createUser({ email, password, name: "Demo Admin" }));
  const team = await findTeamBySlug(DEMO_TEAM_SLUG);
  if (!team) {
    await createTeam({ slug: DEMO_TEAM_SLUG, name: "Demo", ownerUserId: admin.id });
  } else {
    await addMember({ teamId: team.id, userId: admin.id, role: "owner" });
  }
  return { email: admin.email, password, createdAdmin: !existing };
}
