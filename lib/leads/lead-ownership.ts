import { recordAuditEvents, type AuditActor, type NewAuditEvent } from "../audit/audit-log";
import { db, type Tx } from "../db/client";
import { env } from "../env";
import { queueLeadChatJobs } from "../chat/lead-chat-jobs";
import { insertJobs, type NewJob } from "../jobs/job-store";
import { wakeDeliveries } from "../jobs/wake";
import { assignedEmailJob } from "../notifications/assignment-email";
import { isRole, type Role } from "../teams/roles";
import { assignmentEmailsEnabled, findTeamSlug, lockMemberRoles } from "../teams/team-store";
import { now as clock } from "../time/clock";
import { LEAD_UPDATED } from "../webhooks/lead-created-event";
import { leadUpdatedJobs, type LeadChanges } from "../webhooks/lead-updated-event";
import { subscribedEndpointIds } from "../webhooks/webhook-endpoint-store";
import { LEAD_PAGE_SIZE } from "./lead-list-store";
import { lockOwnershipRows, ownerViews, releaseOwnedLeads, writeLeadOwner, writeLeadStatus } from "./lead-ownership-store";
import { isLeadStatus, NEW_LEAD_STATUS, type LeadStatus } from "./lead-status";

// A lead's status and owner (docs/routing.md): the rules, one transaction per change, an
// audit event per changed lead and a lead.updated delivery per changed lead and subscribed
// endpoint, and the new owner's assignment email per lead, written in that transaction. The rows are lead-ownership-store.ts'.
//
// - Any member of the team may change a lead's status; the first change away from New
//   records the lead's first contact (never moved afterwards).
// - A member may take an unassigned lead for themself; owners and admins assign any lead to
//   any member of the team, or to no one. An owner is always a member of the team.
// - Several leads at once (the list's selection, at most a page): owners and admins only.

/** The most leads one change takes: the list's page, from which they are selected. */
export const MAX_LEADS_PER_CHANGE = LEAD_PAGE_SIZE;

export type StatusChange = { leadId: string; from: LeadStatus; to: LeadStatus };
export type OwnerChange = { leadId: string; from: string | null; to: string | null };
/** What changed (leads already as asked are left out), or why nothing did. */
export type OwnershipResult<C> = { ok: true; changed: C[] } | { ok: false; error: string };

type Refusal = { ok: false; error: string };
const refuse = (error: string): Refusal => ({ ok: false, error });

/** The actor's role in the team as the change sees it: the operator's command line acts as an owner. */
function actorRole(actor: AuditActor, roles: Map<string, string>): Role | null {
  if (actor.via === "cli" && actor.userId === null) return "owner";
  const role = actor.userId ? roles.get(actor.userId) : undefined;
  return isRole(role) ? role : null;
}

/** The lead ids of a change, checked; a refusal when there are none or too many. */
function checkIds(leadIds: readonly string[]): string[] | Refusal {
  const ids = [...new Set(leadIds)].filter((id) => typeof id === "string");
  if (!ids.length) return refuse("Choose at least one lead.");
  if (ids.length > MAX_LEADS_PER_CHANGE) return refuse(`At most ${MAX_LEADS_PER_CHANGE} leads can be changed at once.`);
  return ids;
}

const NOT_FOUND = "A lead was not found in this team (it may have been deleted). Nothing was changed.";

function changeTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
  return db().$transaction(work, { maxWait: 10_000, timeout: 10_000 });
}

/** The audit events and lead.updated deliveries of the changed leads, written in `tx`. */
async function recordChanges(
  tx: Tx,
  options: { teamId: string; at: Date; events: (NewAuditEvent & { targetId: string })[]; changes: LeadChanges[] },
): Promise<number> {
  await recordAuditEvents(options.events, tx);
  const endpoints = await subscribedEndpointIds(tx, options.teamId, LEAD_UPDATED);
  if (!endpoints.length) return 0;
  const team = { id: options.teamId, slug: await findTeamSlug(tx, options.teamId) };
  const jobs: NewJob[] = options.events.flatMap((event, i) =>
    leadUpdatedJobs({ endpoints, team, leadId: event.targetId, changes: options.changes[i]!, at: options.at }),
  );
  for (let i = 0; i < jobs.length; i += 500) await insertJobs(jobs.slice(i, i + 500), tx);
  return jobs.length;
}

/** Sets the status of these leads of the team. */
export async function setLeadStatus(options: {
  teamId: string;
  leadIds: readonly string[];
  status: LeadStatus;
  actor: AuditActor;
}): Promise<OwnershipResult<StatusChange>> {
  const { teamId, status, actor } = options;
  if (!isLeadStatus(status)) return refuse("Choose a status.");
  const ids = checkIds(options.leadIds);
  if (!Array.isArray(ids)) return ids;
  const at = clock();
  let jobs = 0;
  const result = await changeTransaction(async (tx): Promise<OwnershipResult<StatusChange>> => {
    const role = actorRole(actor, await lockMemberRoles(tx, teamId, actor.userId ? [actor.userId] : []));
    if (!role) return refuse("You are not a member of this team.");
    if (role === "member" && ids.length > 1) return refuse("Only owners and admins change several leads at once.");
    const rows = await lockOwnershipRows(tx, teamId, ids);
    if (rows.length !== ids.length) return refuse(NOT_FOUND);
    const changed = rows.filter((row) => row.status !== status).map((row) => ({ ...row, from: row.status as LeadStatus }));
    if (!changed.length) return { ok: true, changed: [] };
    const firstContacted = changed.filter((row) => row.from === NEW_LEAD_STATUS && row.firstContactedAt === null);
    await writeLeadStatus(tx, {
      teamId,
      ids: changed.map((row) => row.id),
      status,
      firstContacted: status === NEW_LEAD_STATUS ? [] : firstContacted.map((row) => row.id),
      at,
    });
    jobs = await recordChanges(tx, {
      teamId,
      at,
      events: changed.map((row) => ({
        teamId,
        action: "lead.status_changed",
        actor,
        targetId: row.id,
        details: { from: row.from, to: status },
      })),
      changes: changed.map((row) => ({ status: { from: row.from, to: status } })),
    });
    return { ok: true, changed: changed.map((row) => ({ leadId: row.id, from: row.from, to: status })) };
  });
  if (jobs) wakeDeliveries();
  return result;
}

/** The reason a member may not make this assignment, or null when the member may. */
function memberRefusal(actorId: string | null, ownerId: string | null, rows: readonly { ownerId: string | null }[]): string | null {
  if (rows.length > 1) return "Only owners and admins change several leads at once.";
  if (ownerId === null) return "Only owners and admins unassign leads.";
  if (ownerId !== actorId) return "Members can take a lead only for themselves; owners and admins assign leads to others.";
  if (rows.some((row) => row.ownerId !== null && row.ownerId !== actorId)) {
    return "This lead is already assigned; only owners and admins reassign leads.";
  }
  return null;
}

/** Assigns these leads of the team to a member (`ownerId`), or to no one (null). */
export async function assignLeads(options: {
  teamId: string;
  leadIds: readonly string[];
  ownerId: string | null;
  actor: AuditActor;
}): Promise<OwnershipResult<OwnerChange>> {
  const { teamId, ownerId, actor } = options;
  if (ownerId !== null && typeof ownerId !== "string") return refuse("Choose a member.");
  const ids = checkIds(options.leadIds);
  if (!Array.isArray(ids)) return ids;
  const at = clock();
  let jobs = 0;
  const result = await changeTransaction(async (tx): Promise<OwnershipResult<OwnerChange>> => {
    const roles = await lockMemberRoles(
      tx,
      teamId,
      [actor.userId, ownerId].filter((id): id is string => id !== null),
    );
    const role = actorRole(actor, roles);
    if (!role) return refuse("You are not a member of this team.");
    if (ownerId !== null && !roles.has(ownerId)) return refuse("That user is not a member of this team.");
    const rows = await lockOwnershipRows(tx, teamId, ids);
    if (rows.length !== ids.length) return refuse(NOT_FOUND);
    const refusal = role === "member" ? memberRefusal(actor.userId, ownerId, rows) : null;
    if (refusal) return refuse(refusal);
    const changed = rows.filter((row) => row.ownerId !== ownerId);
    if (!changed.length) return { ok: true, changed: [] };
    const changes = changed.map((row) => ({ leadId: row.id, from: row.ownerId, to: ownerId }));
    const leadIds = changes.map((change) => change.leadId);
    await writeLeadOwner(tx, { teamId, ids: leadIds, ownerId, at });
    jobs = await recordOwnerChanges(tx, { teamId, actor, at, changes });
    jobs += await queueAssignmentEmails(tx, { teamId, actor, ownerId, leadIds, at });
    jobs += ownerId ? await queueLeadChatJobs(tx, { teamId, event: "lead.assigned", leadIds, at }) : 0;
    return { ok: true, changed: changes };
  });
  if (jobs) wakeDeliveries();
  return result;
}

/**
 * Inside `tx`, with the lead locked and `ownerId` checked to be a member: gives one lead of
 * the team (owned by `from`) to `ownerId` at `at`, with assignLeads' own writes (the owner,
 * the audit event with `reason`, lead.updated deliveries, the assignment email). Used by the
 * waiting leads' job (lib/maintenance/waiting-leads.ts). Returns how many jobs it queued (the
 * caller wakes the dispatchers after its commit).
 */
export async function writeLeadAssignment(
  tx: Tx,
  options: { teamId: string; leadId: string; from: string | null; ownerId: string; actor: AuditActor; at: Date; reason: string },
): Promise<number> {
  const { teamId, leadId, ownerId, actor, at } = options;
  await writeLeadOwner(tx, { teamId, ids: [leadId], ownerId, at });
  const jobs = await recordOwnerChanges(tx, {
    teamId,
    actor,
    at,
    changes: [{ leadId, from: options.from, to: ownerId }],
    reason: options.reason,
  });
  return (
    jobs +
    (await queueAssignmentEmails(tx, { teamId, actor, ownerId, leadIds: [leadId], at })) +
    (ownerId ? await queueLeadChatJobs(tx, { teamId, event: "lead.assigned", leadIds: [leadId], at }) : 0)
  );
}

/**
 * The new owner's assignment emails (docs/routing.md "Emails"), one per lead, written in
 * `tx`: when someone else assigned the leads (taking a lead for oneself sends nothing),
 * email is configured and the owner wants them. Returns how many.
 */
async function queueAssignmentEmails(
  tx: Tx,
  options: { teamId: string; actor: AuditActor; ownerId: string | null; leadIds: readonly string[]; at: Date },
): Promise<number> {
  const { teamId, ownerId, at } = options;
  if (ownerId === null || ownerId === options.actor.userId || !env().SMTP_URL) return 0;
  if (!(await assignmentEmailsEnabled({ userId: ownerId, teamId }, tx))) return 0;
  await insertJobs(
    options.leadIds.map((leadId) => assignedEmailJob({ teamId, userId: ownerId, leadId, at })),
    tx,
  );
  return options.leadIds.length;
}

/** The audit events (owners' user ids) and lead.updated deliveries (owners named) of owner changes. */
async function recordOwnerChanges(
  tx: Tx,
  options: { teamId: string; actor: AuditActor; at: Date; changes: OwnerChange[]; reason?: string },
): Promise<number> {
  const { teamId, actor } = options;
  const views = await ownerViews(
    tx,
    options.changes.flatMap((change) => [change.from, change.to]).filter((id): id is string => id !== null),
  );
  const view = (id: string | null) => (id === null ? null : (views.get(id) ?? null));
  return recordChanges(tx, {
    teamId,
    at: options.at,
    events: options.changes.map((change) => ({
      teamId,
      action: "lead.assigned",
      actor,
      targetId: change.leadId,
      details: { from: change.from, to: change.to, ...(options.reason ? { reason: options.reason } : {}) },
    })),
    changes: options.changes.map((change) => ({ owner: { from: view(change.from), to: view(change.to) } })),
  });
}

/**
 * Inside a membership removal's transaction (lib/teams/membership-changes.ts): the leads
 * `userId` owns in the team become unassigned, each audited as lead.assigned to no one by
 * the actor who removed them, with its lead.updated deliveries. Returns how many leads and
 * deliveries (the caller wakes the dispatchers after its commit).
 */
export async function releaseLeadsOfLeaver(
  tx: Tx,
  options: { teamId: string; userId: string; actor: AuditActor },
): Promise<{ leads: number; jobs: number }> {
  const ids = await releaseOwnedLeads(tx, { teamId: options.teamId, userId: options.userId });
  if (!ids.length) return { leads: 0, jobs: 0 };
  const jobs = await recordOwnerChanges(tx, {
    teamId: options.teamId,
    actor: options.actor,
    at: clock(),
    changes: ids.map((leadId) => ({ leadId, from: options.userId, to: null })),
    reason: "member_removed",
  });
  return { leads: ids.length, jobs };
}
