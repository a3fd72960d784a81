import { randomBytes } from "node:crypto";
import { db } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { createTeamIn } from "../teams/team-store";
import { newPasswordHash } from "../users/password";
import { normaliseEmail } from "../users/user-store";
import { setWorkspaceCurrency } from "../workspace/settings";

export const DEMO_TEAM_SLUG = "demo";
export const DEFAULT_DEMO_ADMIN_EMAIL = "admin@example.com";
/** The SetupStep row written with the demo admin and team: once it exists they are never made again. */
export const DEMO_WORKSPACE_STEP = "demo-workspace";

export type SeedResult =
  | { createdAdmin: false; email: string }
  /** `generatedPassword` only when no DEMO_ADMIN_PASSWORD was given: show it once, now. */
  | { createdAdmin: true; email: string; generatedPassword: string | null };

/** 24 characters from 144 random bits: well past the policy, and typed once at most. */
function randomPassword(): string {
  return randomBytes(18).toString("base64url");
}

/**
 * First-run setup (docs/security.md "Demo admin"): the workspace currency
 * (WORKSPACE_CURRENCY, default USD) on every start, and on an empty database only, once,
 * a demo admin (DEMO_ADMIN_EMAIL, DEMO_ADMIN_PASSWORD or a random password) owning the
 * team "demo". A SetupStep row, written in the same transaction, records that this was
 * done: whatever later happens to that admin or team is the owners' business and is never
 * undone by a restart. A database that already has users or teams is marked done as is.
 */
export async function seed(env: NodeJS.ProcessEnv = process.env): Promise<SeedResult> {
  if (env.WORKSPACE_CURRENCY) await setWorkspaceCurrency(env.WORKSPACE_CURRENCY);
  const email = normaliseEmail(env.DEMO_ADMIN_EMAIL?.trim() || DEFAULT_DEMO_ADMIN_EMAIL);
  const done: SeedResult = { createdAdmin: false, email };

  if (await db().setupStep.findUnique({ where: { name: DEMO_WORKSPACE_STEP } })) return done;
  const inUse = (await db().user.count()) > 0 || (await db().team.count()) > 0;
  const generatedPassword = inUse || env.DEMO_ADMIN_PASSWORD ? null : randomPassword();
  // Checked against the policy before anything is written: a weak DEMO_ADMIN_PASSWORD stops the start.
  const passwordHash = inUse ? null : await newPasswordHash(env.DEMO_ADMIN_PASSWORD || generatedPassword!, email);

  try {
    // Several instances starting at once on an empty database (a rolling deploy): the
    // step's primary key lets one win; the others roll back and start without seeding.
    return await db().$transaction(
      async (tx) => {
        await tx.setupStep.create({ data: { name: DEMO_WORKSPACE_STEP } });
        if (!passwordHash) return done;
        const admin = await tx.user.create({ data: { email, name: "Demo Admin", passwordHash }, select: { id: true } });
        await createTeamIn(tx, { slug: DEMO_TEAM_SLUG, name: "Demo", ownerUserId: admin.id });
        return { createdAdmin: true, email, generatedPassword } as const;
      },
      { maxWait: 10_000, timeout: 10_000 },
    );
  } catch (error) {
    if (isUniqueViolation(error)) return done;
    throw error;
  }
}
