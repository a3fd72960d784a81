import { env } from "../env";
import { wakeDeliveries } from "../jobs/wake";
import { now } from "../time/clock";
import type { LeadSource } from "../teams/lead-sources";
import { writeLead, writtenStatus, type LeadFields, type LeadWrite } from "./lead-writer";
import type { NewLead } from "./new-lead";
import { splitName } from "./name";
import type { LeadInput } from "./parse-lead-input";
import { parsePhone } from "./phone";
import { parseWebsite } from "./website";

/** A field that is skipped, not refused, when its value is unreadable (spec 2.1 for phones). */
export type SkippableField = "phone" | "mobile_no" | "website";

/**
 * A submission stored: the lead it made, or the person's lead it was `added` to (a channel set
 * to "add"), or its place in the spam quarantine (`quarantined`: answered as a new lead is);
 * and the fields skipped.
 */
export type CreateLeadResult = { leadId: string; skipped: SkippableField[]; added: boolean; quarantined?: boolean };

export const LEAD_CREATED = "Lead created successfully";
/** The message of a submission added to the person's lead (issue 41: the spec's envelope, this message, 200). */
export const LEAD_UPDATED_MESSAGE = "Lead updated successfully";

/** The success message of spec 4.1 (or, for a submission added to a lead, its "updated" twin), with the suffix naming skipped fields. */
export function successMessage(skipped: readonly SkippableField[], added = false): string {
  const message = added ? LEAD_UPDATED_MESSAGE : LEAD_CREATED;
  return skipped.length ? `${message} (skipped invalid fields: ${skipped.join(", ")})` : message;
}

/** The spec 4.1 success body, naming the lead made or added to. */
export function leadResultBody(result: CreateLeadResult) {
  return { success: true as const, lead_id: result.leadId, message: successMessage(result.skipped, result.added) };
}

/** The status of a stored submission: 201 a new lead, 200 added to the person's lead. */
export const leadResultStatus = (result: CreateLeadResult) => writtenStatus(result.added);

/** Where a lead came from: the key or the web form that created it. */
export type LeadOrigin = { apiKeyId: string | null; formId?: string | null; connectionId?: string | null };

/**
 * The lead a validated input makes, by every rule of spec 2.1 (name split, phones read in
 * the team's default country and skipped when unreadable, website, organization default),
 * before its source and the workspace's currency are settled. The one place these rules
 * live: create_lead and web forms (createLead) and CSV imports (lib/imports/, through
 * leadFromInput) all build leads with it.
 */
export function leadFieldsFromInput(options: {
  team: { id: string; defaultPhoneCountry: string | null };
  origin: LeadOrigin;
  input: LeadInput;
}): { lead: LeadFields; skipped: SkippableField[] } {
  const { team, input } = options;
  const name = splitName(input.name);
  const phoneContext = { countryCode: input.country_code, defaultCountry: team.defaultPhoneCountry };
  const phone = input.phone ? parsePhone(input.phone, phoneContext) : null;
  const mobile = input.mobile_no ? parsePhone(input.mobile_no, phoneContext) : null;
  const website = input.website ? parseWebsite(input.website) : null;
  const skipped: SkippableField[] = [];
  if (input.phone && !phone) skipped.push("phone");
  if (input.mobile_no && !mobile) skipped.push("mobile_no");
  if (input.website && !website) skipped.push("website");

  const lead: LeadFields = {
    teamId: team.id,
    apiKeyId: options.origin.apiKeyId,
    formId: options.origin.formId ?? null,
    connectionId: options.origin.connectionId ?? null,
    firstName: name.firstName,
    lastName: name.lastName,
    email: input.email ?? null,
    phone: phone?.e164 ?? null,
    phoneCountryCode: phone?.countryCode ?? null,
    phoneNational: phone?.national ?? null,
    mobileNo: mobile?.e164 ?? null,
    mobileCountryCode: mobile?.countryCode ?? null,
    mobileNational: mobile?.national ?? null,
    // Kept as typed, so the team still sees what the person entered (issue 11).
    skippedPhone: skipped.includes("phone") ? input.phone! : null,
    skippedMobileNo: skipped.includes("mobile_no") ? input.mobile_no! : null,
    skippedWebsite: skipped.includes("website") ? input.website! : null,
    organization: input.organization ?? name.fullName,
    jobTitle: input.job_title ?? null,
    website,
    territory: input.territory ?? null,
    industry: input.industry ?? null,
    annualRevenue: input.annual_revenue ?? null,
    noOfEmployees: input.no_of_employees ?? null,
    utmSource: input.utm_source ?? null,
    utmMedium: input.utm_medium ?? null,
    utmCampaign: input.utm_campaign ?? null,
    utmTerm: input.utm_term ?? null,
    utmContent: input.utm_content ?? null,
    extraFields: input.extraFields,
  };
  return { lead, skipped };
}

/** leadFieldsFromInput for a source already resolved and the workspace's currency (spec 2.1: it always overrides the supplied one). */
export function leadFromInput(options: {
  team: { id: string; defaultPhoneCountry: string | null };
  origin: LeadOrigin;
  source: LeadSource;
  currency: string;
  input: LeadInput;
}): { lead: NewLead; skipped: SkippableField[] } {
  const { lead, skipped } = leadFieldsFromInput(options);
  return { lead: { ...lead, sourceId: options.source.id, currency: options.currency }, skipped };
}

/**
 * Creates one lead for a team from validated input, applying every rule of spec 2.1. The
 * lead, its outbox rows and the extras (`requestLog`, `claim`, `spentChallenge`) commit in
 * one transaction through the lead writer (lib/leads/lead-writer.ts), which also settles
 * the source and the workspace currency.
 */
export async function createLead(
  options: {
    team: { id: string; defaultPhoneCountry: string | null };
    apiKeyId: string | null;
    /** The web form the lead was sent through, if any. */
    formId?: string | null;
    /** The form-builder connection the lead was sent through, if any. */
    connectionId?: string | null;
    /** A source chosen by the web form; otherwise the request's `source` field decides (spec 2.1). */
    source?: LeadSource | null;
    input: LeadInput;
    /** An Idempotency-Key claim: the response for the new lead is stored with it. */
    claim?: {
      id: string;
      token: string;
      lost: () => Error;
      response: (result: CreateLeadResult) => { status: number; body: string };
    } | null;
    /** Runs once the lead passed every rule, before it is written; throws to refuse it (a web form's budget). */
    admit?: () => Promise<void>;
  } & Pick<LeadWrite, "requestLog" | "spentChallenge" | "delivery" | "repeat" | "quarantine" | "consent">,
): Promise<CreateLeadResult> {
  const { team, input } = options;
  const origin = { apiKeyId: options.apiKeyId, formId: options.formId ?? null, connectionId: options.connectionId ?? null };
  const { lead, skipped } = leadFieldsFromInput({ team, origin, input });
  await options.admit?.();
  const write: LeadWrite = {
    lead,
    source: options.source ? { chosen: options.source } : { requested: input.source },
    requestLog: options.requestLog,
    claim: options.claim ? { ...options.claim, response: (leadId, added) => options.claim!.response({ leadId, skipped, added }) } : null,
    spentChallenge: options.spentChallenge,
    delivery: options.delivery,
    // A quarantined submission never joins a lead (lead-write.ts).
    repeat: options.quarantine ? null : options.repeat,
    quarantine: options.quarantine,
    // A quarantined submission makes no lead, so no evidence yet: its quarantine row keeps it for a release (docs/consent.md).
    consent: options.consent,
    events: { origin, emails: Boolean(env().SMTP_URL) },
    // The app's clock (a test server's may be moved): assignment rules read members' hours at it.
    now: now(),
  };
  const written = await writeLead(write);
  if (written.jobs) wakeDeliveries();
  return { leadId: written.leadId, skipped, added: written.added, quarantined: written.quarantined === true };
}
