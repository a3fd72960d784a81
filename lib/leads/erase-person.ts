import type { AuditActor } from "../audit/audit-log";
import { eraseLeadResponses } from "../idempotency/idempotency-store";
import { eraseLeadRequests } from "../request-log/request-log-store";
import { auditDeleted } from "./delete-leads";
import { findPersonLeads, type PersonLead } from "./duplicate-store";
import { type LeadTeam } from "./lead-list-store";
import { deleteLeads } from "./lead-store";
import { parsePhone } from "./phone";

// A data-subject erasure request (docs/leads.md "Erasing a person"): every lead of the team
// that names the person's email or phone number, and the possible duplicates of those, is
// deleted in one transaction together with the request-log rows and stored idempotent
// responses that name those leads or the email. One audit event names the lead ids and the
// count, never the email or number that was asked for.

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

/**
 * Erases the leads the admin saw and confirmed (`confirmedIds`) that still belong to the
 * person: an id that no longer matches (or never did) is left alone. Returns the count.
 */
export async function erasePerson(options: {
  team: LeadTeam;
  person: Person;
  confirmedIds: readonly string[];
  actor: AuditActor;
}): Promise<number> {
  const { team, person } = options;
  const current = new Set((await leadsOfPerson(team, person)).map((lead) => lead.id));
  const ids = options.confirmedIds.filter((id) => current.has(id));
  const texts = [person.email, person.typed].filter((t): t is string => !!t && t.includes("@"));
  const deleted = await deleteLeads(team.id, ids, async (tx, found) => {
    await eraseLeadRequests(tx, { teamId: team.id, leadIds: found, texts });
    await eraseLeadResponses(tx, found);
    await auditDeleted(tx, { teamId: team.id, actor: options.actor, action: "lead.erased" }, found);
  });
  return deleted.length;
}
