import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { rawJson } from "../db/raw-json";
import { quarantineRow, type LeadFields } from "../leads/lead-write";
import { COMPANY_SELECT, UTM_SELECT } from "../leads/new-lead";
import type { ExtraFieldValue } from "../leads/parse-lead-input";
import { actorManages } from "../teams/actor-role";
import { now } from "../time/clock";
import { addSpamListEntries, removeSpamListValue } from "./spam-list-store";
import { normalizeListValue } from "./spam-list-entries";

// "Spam" on a lead (docs/spam.md "Report"): owners and admins move a lead of the list into
// the quarantine, as the intake would have kept it, in one transaction: a QuarantinedLead row
// under the lead's own id and number (its fields and source, reason "reported", who and
// when), the lead deleted (its submissions, notes and waiting row go with it: the foreign
// keys cascade), its outbox rows not yet sent cancelled, its request-log rows marked; and,
// when asked, its address added to the team's block list. "Not spam" brings it back as a new
// lead (lib/spam/quarantine-release.ts).

/** The reason a reported lead's quarantine row gives (not a check's: it scores nothing). */
export const REPORTED_REASON = { code: "reported", field: "lead", points: 0 } as const;

export type ReportOutcome = { ok: true; blocked: boolean } | { ok: false; error: string };

const GONE = "That lead is no longer in the list (deleted, merged or reported meanwhile).";
/** Who may: as for deleting a lead (docs/leads.md "Deleting"). */
export const NOT_MANAGER = "Only the team's owners and admins can do this.";

/** The lead's fields as the writer takes them (LeadFields): every one, so a new field cannot be missed. */
const FIELDS = {
  teamId: true,
  apiKeyId: true,
  formId: true,
  connectionId: true,
  firstName: true,
  lastName: true,
  email: true,
  organization: true,
  // The numbers as stored, and those the intake skipped as invalid.
  phone: true,
  phoneCountryCode: true,
  phoneNational: true,
  skippedPhone: true,
  mobileNo: true,
  mobileCountryCode: true,
  mobileNational: true,
  skippedMobileNo: true,
  skippedWebsite: true,
  ...COMPANY_SELECT,
  ...UTM_SELECT,
  extraFields: true,
} as const satisfies Record<keyof LeadFields, true>;

/** Moves the team's lead `leadId` to the quarantine, audited; `block`: its address goes on the block list too. */
export async function reportLeadAsSpam(options: {
  teamId: string;
  leadId: string;
  block: boolean;
  actor: AuditActor;
}): Promise<ReportOutcome> {
  const at = now();
  return db().$transaction(async (tx): Promise<ReportOutcome> => {
    if (!(await actorManages(tx, options.teamId, options.actor))) return { ok: false, error: NOT_MANAGER };
    // The lead's row is locked (PostgreSQL) or the database's write lock taken (SQLite) before
    // it is read: a report at the same moment waits and finds it gone, and a repeat submission
    // joining it meanwhile commits first and is read with it (never cascaded away unread).
    const locked = await tx.$executeRaw`UPDATE "Lead" SET "seq" = "seq" WHERE "id" = ${options.leadId} AND "teamId" = ${options.teamId}`;
    if (!locked) return { ok: false, error: GONE };
    const found = await tx.lead.findFirst({
      where: { id: options.leadId, teamId: options.teamId },
      select: { ...FIELDS, seq: true, source: { select: { id: true, name: true } } },
    });
    if (!found) return { ok: false, error: GONE };
    const { seq, source, ...fields } = found;
    const lead: LeadFields = { ...fields, extraFields: fields.extraFields as Record<string, ExtraFieldValue> };
    const row = quarantineRow(
      { lead, source: { chosen: source }, quarantine: { score: 0, reasons: [REPORTED_REASON], ip: null }, now: at },
      seq,
    );
    await tx.quarantinedLead.create({
      data: {
        ...row,
        // A reported lead's evidence stays with the lead's rows until the lead is deleted below.
        consent: undefined,
        lead: rawJson(row.lead),
        source: rawJson(row.source),
        reasons: row.reasons,
        reportedById: options.actor.userId,
        reportedAt: at,
      },
    });
    await tx.lead.deleteMany({ where: { id: options.leadId, teamId: options.teamId } });
    // Its webhook deliveries and emails not sent yet are not sent (one being sent finishes).
    await tx.job.updateMany({
      where: { teamId: options.teamId, leadId: options.leadId, state: "pending" },
      data: { state: "cancelled", finishedAt: at, lastError: "The lead was reported as spam." },
    });
    await tx.apiRequest.updateMany({ where: { teamId: options.teamId, leadId: options.leadId }, data: { spam: REPORTED_REASON.code } });
    const address = options.block && lead.email ? normalizeListValue("blocked_email", lead.email) : null;
    const blocked = address !== null && "value" in address;
    if (blocked) {
      // The allow list wins over every check: a sender released before is taken off it.
      await removeSpamListValue(tx, options.teamId, "allow_email", address.value);
      await addSpamListEntries(
        tx,
        options.teamId,
        [{ list: "blocked_email", value: address.value, note: `reported ${options.leadId}` }],
        options.actor.userId,
      );
    }
    await recordAuditEvent(
      { teamId: options.teamId, actor: options.actor, action: "lead.reported_spam", targetId: options.leadId, details: { blocked } },
      tx,
    );
    return { ok: true, blocked };
  });
}
