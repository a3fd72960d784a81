import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { createTeamIn, takenSlugs, teamRepeatWindow, writeGeneralSettings, type Team } from "./team-store";

// A user creates a team (web UI or operator CLI): the name's rules, the slug made from it,
// and the team, its owner and the audit event in one transaction; and the team's general
// settings (Settings → General). The rows are team-store.ts'.

export const TEAM_NAME_MAX = 100;

/** A slug from a team name: lower-case ASCII letters, digits and single hyphens, at most 40. */
export function slugFromName(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, 40)
    .replace(/^-+|-+$/g, "");
  return slug || "team";
}

/**
 * A user creates a team (web UI or operator CLI): the team with its "API" source, the user
 * as its owner, and the audit event, all or nothing. The slug comes from the name; when it
 * is taken, "-2", "-3" … is added.
 */
export async function createOwnedTeam(options: { name: string; ownerUserId: string; actor?: AuditActor }): Promise<Team> {
  const name = options.name.trim().replace(/\s+/g, " ");
  if (!name || name.length > TEAM_NAME_MAX) throw new Error(`A team name has 1 to ${TEAM_NAME_MAX} characters`);
  const base = slugFromName(name);
  return db().$transaction(async (tx) => {
    const taken = await takenSlugs(tx, base);
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base.slice(0, 40 - String(n).length - 1).replace(/-+$/, "")}-${n}`;
    const team = await createTeamIn(tx, { slug, name, ownerUserId: options.ownerUserId });
    await recordAuditEvent(
      {
        teamId: team.id,
        action: "team.created",
        actor: options.actor ?? { userId: options.ownerUserId, ip: null, via: "web" },
        targetId: team.id,
        details: { name, slug },
      },
      tx,
    );
    return team;
  });
}

/**
 * Saves Settings → General: the name, the default phone country and the repeat window
 * (already checked: parseRepeatWindowDays). A change of the window, which decides whether a
 * person's repeat submission joins their lead, is audited (team.repeat_window_set, { from, to }
 * in days) in the same transaction; the name and country, as before, are not.
 */
export async function updateGeneralSettings(options: {
  teamId: string;
  name: string;
  defaultPhoneCountry: string | null;
  repeatWindowDays: number;
  actor: AuditActor;
}): Promise<void> {
  await db().$transaction(async (tx) => {
    const before = await teamRepeatWindow(options.teamId, tx);
    await writeGeneralSettings(tx, options);
    if (before !== options.repeatWindowDays) {
      await recordAuditEvent(
        {
          teamId: options.teamId,
          action: "team.repeat_window_set",
          actor: options.actor,
          targetId: options.teamId,
          details: { from: before, to: options.repeatWindowDays },
        },
        tx,
      );
    }
  });
}
