import { eraseQuarantinedNaming, findQuarantinedNaming } from "../spam/quarantine-store";
import { eraseAllowedAddresses } from "../spam/spam-list-store";
import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { eraseKeptDeliveries, findKeptDeliveries } from "../connections/connection-erasure";
import { db } from "../db/client";
import { eraseLeadResponses } from "../idempotency/idempotency-store";
import { eraseDrafts, eraseRefusedRows, findImportFiles, findRefusedRows, removeImportFiles } from "../imports/import-erasure";
import { countPersonJobs, erasePersonJobs } from "../jobs/job-erasure";
import { countRequestsQuoting, eraseLeadRequests } from "../request-log/request-log-store";
import { suppressAddresses } from "../consent/suppression-store";
import { countPersonHeld, deleteHeld } from "../consent/held-submission-store";
import { personKeyOf } from "../consent/held-submissions";
import { now } from "../time/clock";
import { auditDeleted, deletionTransaction, leadIdsDetails } from "./delete-leads";
import { findPersonLeads, type PersonLead } from "./duplicate-store";
import { type LeadTeam } from "./lead-list-store";
import { deleteLeads } from "./lead-store";
import { eraseSubmissionsNaming, findSubmissionsNaming } from "./lead-submission-store";
import { personContacts } from "./person-match";
import { parsePhone } from "./phone";

// A data-subject erasure request (docs/leads.md "Erasing a person"): every lead of the team
// that names the person's email or phone number, and the possible duplicates of those, is
// deleted in one transaction together with what else names those leads or the person: the
// request-log rows, stored idempotent responses, the outbox's webhook and email jobs with
// their delivery log, refused import rows and draft imports, form-builder deliveries kept
// whole; uploaded files after the commit. The person's addresses go on the team's consent
// suppression list, as keyed hashes only (lib/consent/suppression-store.ts). One audit event names the lead ids and the counts, never the email or number
// that was asked for. A person with no lead left is erased all the same: the page lists what
// else names them (findPersonRecords) and offers the erasure.

/** Who is to be erased: a lower-cased email, or an E.164 number read like the intake reads it. */
export type Person = { email: string | null; phone: string | null; typed: string };

/** The person an admin typed, or null when it is neither an email nor a readable phone number. */
export function parsePerson(text: string, team: Pick<LeadTeam, "defaultPhoneCountry">): Person | null {
  const typed = text.trim().slice(0, 320);
  if (!typed) return null;
  if (typed.includes("@")) return { email: typed.toLowerCase(), phone: null, typed };
  const phone = parsePhone(typed, { defaultCountry: team.defaultPhoneCountry });
  return phone ? { email: null, phone: phone.e164, typed } : null;
}

/** The leads an erasure of this person deletes, newest first. */
export function leadsOfPerson(team: LeadTeam, person: Person): Promise<PersonLead[]> {
  return findPersonLeads(team.id, person);
}

/** What an erasure removed: counts only (also in its audit event), never what they held. */
export type Erasure = {
  leads: number;
  /** Submissions kept on leads not erased (another email's lead joined by a number, a merge) that name the person. */
  submissions: number;
  /** Submissions in the spam quarantine naming the person (docs/spam.md). */
  quarantined: number;
  /** Submissions held until the person confirms by email (docs/consent.md), by the person's email addresses. */
  heldSubmissions: number;
  requestLogRows: number;
  storedResponses: number;
  /** Webhook and email jobs (queued, under way or finished) naming the person. */
  jobs: number;
  /** Webhook delivery-log rows: those of the jobs, and others quoting the person. */
  deliveryAttempts: number;
  refusedImportRows: number;
  /** Draft imports (uploaded, never started) holding the person: row and file. */
  importDrafts: number;
  /** Uploaded files removed after the commit: the drafts', and finished imports' left behind. */
  importFiles: number;
  /** Uploaded files not read (beyond the byte budget, or unreadable): docs/leads.md. */
  importFilesUnchecked: number;
  /** Form-builder deliveries kept whole (needs mapping, refused) whose body names the person. */
  connectionDeliveries: number;
};

type ErasedRows = Omit<Erasure, "leads" | "importFiles" | "importFilesUnchecked">;

/** Whether an erasure removed anything at all (files it could not read are not removed). */
export function erasedAnything(erasure: Erasure): boolean {
  return Object.entries(erasure).some(([what, count]) => what !== "importFilesUnchecked" && count > 0);
}

/**
 * What names the person besides their leads' own rows, as an erasure would remove it now:
 * found by the person's emails and numbers (those typed and their leads'), so also when no
 * lead is left. Stored responses name a lead only (by its id): none here.
 */
export type PersonRecords = Omit<Erasure, "leads" | "storedResponses">;

/** The person's leads (newest first) and what else names them: the Erase page, before the admin confirms. */
export async function findPersonRecords(team: LeadTeam, person: Person): Promise<{ leads: PersonLead[]; records: PersonRecords }> {
  const leads = await leadsOfPerson(team, person);
  const contacts = personContacts(person, leads);
  const teamId = team.id;
  const files = await findImportFiles({ teamId, contacts });
  const records: PersonRecords = {
    submissions: (await findSubmissionsNaming(db(), { teamId, contacts, exceptLeadIds: leads.map((lead) => lead.id) })).length,
    quarantined: (await findQuarantinedNaming(db(), { teamId, contacts })).length,
    heldSubmissions: await countPersonHeld(db(), teamId, contacts.emails.map(personKeyOf)),
    connectionDeliveries: (await findKeptDeliveries(db(), { teamId, contacts })).length,
    refusedImportRows: (await findRefusedRows(db(), { teamId, contacts })).length,
    importDrafts: files.matches.filter((f) => f.draft).length,
    importFiles: files.matches.length,
    importFilesUnchecked: files.unchecked,
    requestLogRows: await countRequestsQuoting(db(), { teamId, texts: [...contacts.emails, ...contacts.phones] }),
    ...(await countPersonJobs(db(), { teamId, contacts })),
  };
  return { leads, records };
}

/** An admin's erasure: the person as typed, and the leads they saw and confirmed. */
export type ErasureRequest = { team: LeadTeam; person: Person; confirmedIds: readonly string[]; actor: AuditActor };

/**
 * Erases the leads the admin saw and confirmed (`confirmedIds`) that still belong to the
 * person (an id that no longer matches, or never did, is left alone), and what else the
 * deployment holds of the person: request-log rows, stored responses, the outbox's jobs
 * and delivery log, refused import rows and uploaded import files naming one of the
 * erased leads or the person's emails or numbers (as typed, and those of the erased
 * leads: lib/leads/person-match.ts). One transaction with one audit event of counts; the
 * files are read before it and removed after its commit.
 */
export async function runErasure(options: ErasureRequest): Promise<Erasure> {
  const { team, person, actor } = options;
  const current = new Map((await leadsOfPerson(team, person)).map((lead) => [lead.id, lead]));
  const confirmed = [...new Set(options.confirmedIds)].flatMap((id) => current.get(id) ?? []);
  const ids = confirmed.map((lead) => lead.id);
  const contacts = personContacts(person, confirmed);
  const files = await findImportFiles({ teamId: team.id, contacts });

  // None of the confirmed leads left (no ids): the rest of the person is erased all the same.
  const erased = await deletionTransaction(async (tx) => {
    const found = await deleteLeads(tx, team.id, ids);
    const drafts = await eraseDrafts(
      tx,
      team.id,
      files.matches.filter((f) => f.draft).map((f) => f.importId),
    );
    // A quarantined submission's request-log rows and stored answer name it by its lead id, as a lead's do.
    const quarantined = await eraseQuarantinedNaming(tx, { teamId: team.id, contacts });
    await eraseAllowedAddresses(tx, team.id, contacts.emails);
    // The evidence went with the leads; the addresses stay only as keyed hashes, so a later
    // submission or import of them is marked "withdrew consent before" (docs/consent.md).
    await suppressAddresses(tx, { teamId: team.id, emails: contacts.emails, reason: "erased", at: now() });
    const answered = [...found, ...quarantined];
    const rows: ErasedRows = {
      submissions: await eraseSubmissionsNaming(tx, { teamId: team.id, contacts, exceptLeadIds: found }),
      quarantined: quarantined.length,
      heldSubmissions: (await deleteHeld(tx, { teamId: team.id, personKeys: contacts.emails.map(personKeyOf) })).length,
      requestLogRows: await eraseLeadRequests(tx, { teamId: team.id, leadIds: answered, texts: [...contacts.emails, ...contacts.phones] }),
      storedResponses: await eraseLeadResponses(tx, answered),
      ...(await erasePersonJobs(tx, { teamId: team.id, leadIds: ids, contacts })),
      refusedImportRows: await eraseRefusedRows(tx, { teamId: team.id, contacts }),
      importDrafts: drafts.length,
      connectionDeliveries: await eraseKeptDeliveries(tx, { teamId: team.id, contacts }),
    };
    // The deleted drafts' files and finished imports' (a draft started meanwhile keeps its file).
    const toRemove = files.matches.filter((f) => !f.draft || drafts.includes(f.importId)).map((f) => f.filePath);
    const details = { ...rows, importFiles: toRemove.length, importFilesUnchecked: files.unchecked };
    const event = { teamId: team.id, actor, action: "lead.erased" as const, details };
    if (found.length) await auditDeleted(tx, event, found);
    else if (Object.values(details).some((n) => n > 0))
      await recordAuditEvent({ ...event, details: { ...leadIdsDetails([]), ...details } }, tx);
    return { leads: found.length, rows, files: toRemove };
  });
  const importFiles = await removeImportFiles(erased.files);
  return { leads: erased.leads, ...erased.rows, importFiles, importFilesUnchecked: files.unchecked };
}
