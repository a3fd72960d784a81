import { z } from "zod";
import { recordAuditEvent, type AuditActor, type AuditDetails } from "../audit/audit-log";
import { db, type Tx } from "../db/client";
import { MANAGERS, type Role } from "../teams/roles";
import { SPAM_SETTINGS_BOUNDS, type SpamSettingsValues } from "./spam-settings-values";

export { SPAM_SETTINGS_BOUNDS, SPAM_SETTINGS_DEFAULTS, type SpamSettingsValues } from "./spam-settings-values";

// Settings → Spam's scalar settings (docs/spam.md "Settings"): the threshold, business
// addresses only, the burst limit and window, and how long the quarantine keeps a
// submission. The rules live here, so the server action, a CLI and the tests share them;
// the intake reads the columns with the team on every submission (lib/teams/intake-team.ts).

/** The Team column of each setting, and its name in an audit event's details. */
const COLUMNS = {
  threshold: ["spamThreshold", "threshold"],
  businessOnly: ["spamBusinessOnly", "business_only"],
  burstLimit: ["spamBurstLimit", "burst_limit"],
  burstMinutes: ["spamBurstMinutes", "burst_minutes"],
  retentionDays: ["spamRetentionDays", "retention_days"],
} as const satisfies Record<keyof SpamSettingsValues, readonly [string, string]>;

const SETTINGS = Object.keys(COLUMNS) as (keyof SpamSettingsValues)[];

/** A whole number in bounds, typed (a form's text) or given; "1.5", "", "1e2" are refused. */
function wholeNumber(bounds: { min: number; max: number }, message: string) {
  return z.preprocess(
    (value) => (typeof value === "string" && /^\s*\d{1,7}\s*$/.test(value) ? Number(value) : value),
    z.number({ error: message }).int({ error: message }).min(bounds.min, { error: message }).max(bounds.max, { error: message }),
  );
}

const b = SPAM_SETTINGS_BOUNDS;
export const spamSettingsSchema = z.object({
  threshold: wholeNumber(b.threshold, `Enter a threshold from ${b.threshold.min} to ${b.threshold.max}.`),
  // A checkbox sends "on" when ticked and nothing when not.
  businessOnly: z.preprocess((value) => value === true || value === "on" || value === "true", z.boolean()),
  burstLimit: wholeNumber(
    b.burstLimit,
    `Enter a number of leads from ${b.burstLimit.min} (off) to ${b.burstLimit.max.toLocaleString("en-US")}.`,
  ),
  burstMinutes: wholeNumber(
    b.burstMinutes,
    `Enter a number of minutes from ${b.burstMinutes.min} to ${b.burstMinutes.max.toLocaleString("en-US")}.`,
  ),
  retentionDays: wholeNumber(b.retentionDays, `Enter a number of days from ${b.retentionDays.min} to ${b.retentionDays.max}.`),
});

export const NOT_A_MANAGER = "Only owners and admins can change the spam settings.";

/** The team's settings as stored. */
export async function readSpamSettings(teamId: string, client: Tx = db()): Promise<SpamSettingsValues> {
  const team = await client.team.findUniqueOrThrow({
    where: { id: teamId },
    select: { spamThreshold: true, spamBusinessOnly: true, spamBurstLimit: true, spamBurstMinutes: true, spamRetentionDays: true },
  });
  return {
    threshold: team.spamThreshold,
    businessOnly: team.spamBusinessOnly,
    burstLimit: team.spamBurstLimit,
    burstMinutes: team.spamBurstMinutes,
    retentionDays: team.spamRetentionDays,
  };
}

export type SpamSettingsResult = { ok: true; changed: (keyof SpamSettingsValues)[] } | { ok: false; error: string };

/**
 * Saves the settings an owner or admin sent (checked here: spamSettingsSchema); audited as
 * team.spam_settings_set with the new value of each setting that changed, in the same
 * transaction. Nothing changed: no event. The next submission reads the new values.
 */
export async function saveSpamSettings(options: {
  teamId: string;
  role: Role;
  input: unknown;
  actor: AuditActor;
}): Promise<SpamSettingsResult> {
  if (!MANAGERS.includes(options.role)) return { ok: false, error: NOT_A_MANAGER };
  const parsed = spamSettingsSchema.safeParse(options.input);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]!.message };
  const settings = parsed.data;
  return db().$transaction(async (tx) => {
    const before = await readSpamSettings(options.teamId, tx);
    const changed = SETTINGS.filter((setting) => before[setting] !== settings[setting]);
    if (!changed.length) return { ok: true, changed };
    await tx.team.update({
      where: { id: options.teamId },
      data: Object.fromEntries(changed.map((setting) => [COLUMNS[setting][0], settings[setting]])),
      select: { id: true },
    });
    const details: AuditDetails = Object.fromEntries(changed.map((setting) => [COLUMNS[setting][1], settings[setting]]));
    await recordAuditEvent(
      { teamId: options.teamId, action: "team.spam_settings_set", actor: options.actor, targetId: options.teamId, details },
      tx,
    );
    return { ok: true, changed };
  });
}
