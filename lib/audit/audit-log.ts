import { db, type Tx } from "../db/client";
import { clientIp } from "../http/request-context";
import { redact } from "../log/logger";

// The audit trail of a team (docs/security.md "Hardening"): who generated, copied or deleted an
// API key, invited a member, changed a role or removed a member, when and from which address. Rows are
// written in the same transaction as the change they describe. Team Settings shows
// them to owners and admins through listAuditEvents.

export const AUDIT_ACTIONS = [
  "api_key.generated",
  "api_key.secret_copied",
  "api_key.secret_shown",
  "api_key.deleted",
  "api_key.renamed",
  "api_key.expiry_set",
  "api_key.rolled",
  // What a repeat submission sent with the key does: { from, to } ("add" | "new"), its description.
  "api_key.repeats_set",
  // Whether the spam checks run on the key's submissions: { from, to } (booleans), its description.
  "api_key.spam_checks_set",
  "member.invited",
  "member.role_changed",
  "member.removed",
  "member.invite_revoked",
  "member.sessions_ended",
  "web_form.created",
  "web_form.updated",
  "web_form.enabled",
  "web_form.disabled",
  "web_form.deleted",
  // The consent a web form asks for (docs/consent.md): { version, number, required, purpose } of the new version, or { asked: false }.
  "web_form.consent_set",
  "connection.created",
  "connection.url_rolled",
  "connection.secret_set",
  "connection.enabled",
  "connection.disabled",
  "connection.mapping_changed",
  // What a repeat submission to the connection does: { from, to } ("add" | "new"), its name.
  "connection.repeats_set",
  // Whether the spam checks run on the connection's submissions: { from, to } (booleans), its name.
  "connection.spam_checks_set",
  "connection.deleted",
  // The consent a connection records (docs/consent.md "Connections"): as web_form.consent_set.
  "connection.consent_set",
  // One kept delivery of a connection's log: the connection as target, the delivery's id; never its body.
  "connection.delivery_deleted",
  "webhook.created",
  "webhook.updated",
  "webhook.deleted",
  "webhook.enabled",
  "webhook.disabled",
  "webhook.secret_revealed",
  "webhook.secret_rotated",
  "webhook.test_sent",
  "webhook.resent",
  // A chat destination (docs/notifications.md): its name, platform and masked URL, never the URL.
  "chat.created",
  "chat.updated",
  "chat.deleted",
  "chat.enabled",
  "chat.disabled",
  "chat.test_sent",
  "notifications.changed",
  // Lead events name lead ids and counts, never a person's name, email or phone (docs/leads.md).
  "lead.deleted",
  "lead.erased",
  "lead.exported",
  "lead.merged",
  "lead.retention_applied",
  // One event per lead: { from, to } statuses, or owners' user ids (null: unassigned).
  "lead.status_changed",
  "lead.assigned",
  // A member's note on a lead (the lead as target): { note_id, length }, and on deletion by_author; never its text.
  "lead.note_added",
  "lead.note_edited",
  "lead.note_deleted",
  // Consent given another way, recorded on the lead's page (the lead as target): { consent_id, status, purpose }; never the note.
  "lead.consent_recorded",
  // "Resend confirmation" of a double opt-in email on the lead's page (the lead as target): { confirmation_id }.
  "lead.consent_confirmation_sent",
  // "Withdraw consent" on the lead's page (the lead as target): { consent_id }; never the note. The address goes on the suppression list.
  "lead.consent_withdrawn",
  // An operator's purge of a suppressed address (`leads suppression-purge`): { reason } (never the address nor its hash).
  "consent.suppression_purged",
  // A quarantined submission released into the list ("Not spam"): the lead as target; never its content.
  "lead.released_from_spam",
  // A lead moved to the quarantine ("Spam" on its page): the lead as target, { blocked } (its address put on the block list).
  "lead.reported_spam",
  // Leads → Spam emptied ({ count }), and the quarantine's retention ({ count, retentionDays }, the job's actor).
  "spam.emptied",
  "spam.retention_applied",
  // Imports name the file, the counts and the duplicates mode; never a row's content.
  "lead.import_started",
  "lead.import_cancelled",
  "lead.imported",
  "lead.import_undone",
  // Lead routing (Settings → Lead Routing): the rule's id as target, its name; never a lead's content.
  "routing.rule_created",
  "routing.rule_updated",
  "routing.rule_deleted",
  "routing.rules_reordered",
  "routing.fallback_changed",
  "team.created",
  // The team's repeat window (Settings → General): { from, to } in days, 0 meaning never.
  "team.repeat_window_set",
  // Settings → Spam: the new value of each setting that changed (threshold, business_only, burst_limit, burst_minutes, retention_days).
  "team.spam_settings_set",
  // The team's spam lists: { list, count } (the entry as target when one); never a value, which may be a person's address.
  "spam_list.entries_added",
  "spam_list.entry_removed",
  "user.password_changed",
  "user.password_reset",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who acted and from where: a signed-in user on the web, or an operator on the CLI. */
export type AuditActor = { userId: string | null; ip: string | null; via: "web" | "cli" };

export const CLI_ACTOR: AuditActor = { userId: null, ip: null, via: "cli" };

/**
 * The signed-in user acting through the web UI, with the client address read like the
 * API's (TRUST_PROXY_HOPS). In a server action: webActor(session.userId, await headers()).
 */
export function webActor(userId: string, headers: Pick<Headers, "get">): AuditActor {
  return { userId, ip: clientIp(headers), via: "web" };
}

export type AuditDetails = Record<string, string | number | boolean | null>;

export type NewAuditEvent = { teamId: string; action: AuditAction; actor: AuditActor; targetId?: string | null; details?: AuditDetails };

const auditRow = (event: NewAuditEvent) => ({
  teamId: event.teamId,
  action: event.action,
  actorUserId: event.actor.userId,
  via: event.actor.via,
  ip: event.actor.ip,
  targetId: event.targetId ?? null,
  // Details are descriptive text only; the log redaction keeps a secret out of them too.
  details: event.details ? (redact(event.details) as AuditDetails) : undefined,
});

export async function recordAuditEvent(event: NewAuditEvent, client: Tx = db()): Promise<void> {
  await client.auditEvent.create({ data: auditRow(event) });
}

/** Several events at once (one per lead of a change), in statements of at most 500 rows. */
export async function recordAuditEvents(events: readonly NewAuditEvent[], client: Tx = db()): Promise<void> {
  for (let i = 0; i < events.length; i += 500) await client.auditEvent.createMany({ data: events.slice(i, i + 500).map(auditRow) });
}

export type AuditEventView = {
  id: string;
  action: AuditAction;
  at: Date;
  actorUserId: string | null;
  actorEmail: string | null;
  via: "web" | "cli";
  ip: string | null;
  targetId: string | null;
  details: AuditDetails | null;
};

export const AUDIT_PAGE_SIZE = 50;

/**
 * A team's audit events, newest first (for Team Settings, owners and admins only), at
 * most `limit` (1-500). `olderThan` is the id of the last event of the previous page:
 * the page continues strictly after it in (time, id) order, so events sharing a
 * millisecond are neither skipped nor repeated. An id of another team gives nothing.
 */
export async function listAuditEvents(teamId: string, options: { limit?: number; olderThan?: string } = {}): Promise<AuditEventView[]> {
  let after = {};
  if (options.olderThan !== undefined) {
    const cursor = await db().auditEvent.findFirst({ where: { id: options.olderThan, teamId }, select: { id: true, createdAt: true } });
    if (!cursor) return [];
    after = { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] };
  }
  const rows = await db().auditEvent.findMany({
    where: { teamId, ...after },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: Math.min(Math.max(options.limit ?? AUDIT_PAGE_SIZE, 1), 500),
  });
  const actorIds = [...new Set(rows.map((r) => r.actorUserId).filter((id): id is string => id !== null))];
  const actors = actorIds.length ? await db().user.findMany({ where: { id: { in: actorIds } }, select: { id: true, email: true } }) : [];
  const emailOf = new Map(actors.map((u) => [u.id, u.email]));
  return rows.map((row) => ({
    id: row.id,
    action: row.action as AuditAction,
    at: row.createdAt,
    actorUserId: row.actorUserId,
    actorEmail: row.actorUserId ? (emailOf.get(row.actorUserId) ?? null) : null,
    via: row.via === "cli" ? "cli" : "web",
    ip: row.ip,
    targetId: row.targetId,
    details: (row.details as AuditDetails | null) ?? null,
  }));
}

/** The id of the team's newest audit event, or null: a marker of "something changed" (lib/leads/speed-to-lead.ts). */
export async function newestAuditEventId(teamId: string): Promise<string | null> {
  const newest = await db().auditEvent.findFirst({ where: { teamId }, orderBy: { createdAt: "desc" }, select: { id: true } });
  return newest?.id ?? null;
}

export type TargetEventRow = {
  id: string;
  action: AuditAction;
  at: Date;
  actorUserId: string | null;
  via: "web" | "cli";
  details: AuditDetails | null;
};

/**
 * The team's newest events about one target (a lead's timeline), newest first, at most `take`,
 * leaving out `except`: the (teamId, targetId, createdAt) index.
 */
export async function listTargetEvents(options: {
  teamId: string;
  targetId: string;
  take: number;
  except?: readonly AuditAction[];
}): Promise<TargetEventRow[]> {
  const rows = await db().auditEvent.findMany({
    where: { teamId: options.teamId, targetId: options.targetId, action: { notIn: [...(options.except ?? [])] } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: options.take,
    select: { id: true, action: true, createdAt: true, actorUserId: true, via: true, details: true },
  });
  return rows.map((row) => ({
    id: row.id,
    action: row.action as AuditAction,
    at: row.createdAt,
    actorUserId: row.actorUserId,
    via: row.via === "cli" ? "cli" : "web",
    details: (row.details as AuditDetails | null) ?? null,
  }));
}

/** How many events about the target there are, leaving out `except` (the same index). */
export function countTargetEvents(options: { teamId: string; targetId: string; except?: readonly AuditAction[] }): Promise<number> {
  return db().auditEvent.count({
    where: { teamId: options.teamId, targetId: options.targetId, action: { notIn: [...(options.except ?? [])] } },
  });
}
