import type { Tx } from "../db/client";
import { nudgeDispatcher } from "../jobs/dispatcher-process";
import { enqueueLeadCreated } from "../notifications/lead-created-outbox";
import { resolveLeadSource, type LeadSource } from "../teams/lead-sources";
import { workspaceCurrency } from "../workspace/settings";
import { insertLead, type NewLead } from "./lead-store";
import { splitName } from "./name";
import type { LeadInput } from "./parse-lead-input";
import { parsePhone } from "./phone";
import { parseWebsite } from "./website";

/** A field that is skipped, not refused, when its value is unreadable (spec 2.1 for phones). */
export type SkippableField = "phone" | "mobile_no" | "website";

export type CreateLeadResult = { leadId: string; skipped: SkippableField[] };

export const LEAD_CREATED = "Lead created successfully";

/** The success message of spec 4.1, with the suffix naming skipped fields. */
export function successMessage(skipped: readonly SkippableField[]): string {
  return skipped.length ? `${LEAD_CREATED} (skipped invalid fields: ${skipped.join(", ")})` : LEAD_CREATED;
}

/** The spec 4.1 success body. */
export function leadCreatedBody(result: CreateLeadResult) {
  return { success: true as const, lead_id: result.leadId, message: successMessage(result.skipped) };
}

/** Where a lead came from: the key or the web form that created it. */
export type LeadOrigin = { apiKeyId: string | null; formId?: string | null };

/**
 * The lead a validated input makes, by every rule of spec 2.1 (name split, phones read in
 * the team's default country and skipped when unreadable, website, organization default,
 * the workspace's currency), for the source already resolved. The one place these rules
 * live: create_lead, web forms and CSV imports (lib/imports/) all build leads with it.
 */
export function leadFromInput(options: {
  team: { id: string; defaultPhoneCountry: string | null };
  origin: LeadOrigin;
  source: LeadSource;
  currency: string;
  input: LeadInput;
}): { lead: NewLead; skipped: SkippableField[] } {
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

  const lead: NewLead = {
    teamId: team.id,
    apiKeyId: options.origin.apiKeyId,
    formId: options.origin.formId ?? null,
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
    sourceId: options.source.id,
    jobTitle: input.job_title ?? null,
    website,
    territory: input.territory ?? null,
    industry: input.industry ?? null,
    annualRevenue: input.annual_revenue ?? null,
    noOfEmployees: input.no_of_employees ?? null,
    // Spec 2.1: the supplied currency is always overridden by the workspace's.
    currency: options.currency,
    utmSource: input.utm_source ?? null,
    utmMedium: input.utm_medium ?? null,
    utmCampaign: input.utm_campaign ?? null,
    utmTerm: input.utm_term ?? null,
    utmContent: input.utm_content ?? null,
    extraFields: input.extraFields,
  };
  return { lead, skipped };
}

/**
 * Creates one lead for a team from validated input, applying every rule of spec 2.1.
 * `beforeCommit` runs inside the insert's transaction: what it writes commits with the lead.
 */
export async function createLead(options: {
  team: { id: string; defaultPhoneCountry: string | null };
  apiKeyId: string | null;
  /** The web form the lead was sent through, if any. */
  formId?: string | null;
  /** A source chosen by the web form; otherwise the request's `source` field decides (spec 2.1). */
  source?: LeadSource | null;
  input: LeadInput;
  beforeCommit?: (tx: Tx, result: CreateLeadResult) => Promise<void>;
}): Promise<CreateLeadResult> {
  const { team, input, beforeCommit } = options;
  const [source, currency] = await Promise.all([
    options.source ?? resolveLeadSource(team.id, input.source),
    workspaceCurrency(),
  ]);
  const { lead, skipped } = leadFromInput({ team, origin: { apiKeyId: options.apiKeyId, formId: options.formId ?? null }, source, currency, input });
  let jobs = 0;
  const leadId = await insertLead(lead, async (tx, id) => {
    // The outbox rows commit with the lead (docs/webhooks.md).
    jobs = await enqueueLeadCreated(tx, { teamId: team.id, leadId: id, lead, sourceName: source.name, origin: { apiKeyId: options.apiKeyId, formId: options.formId ?? null } });
    await beforeCommit?.(tx, { leadId: id, skipped });
  });
  if (jobs) nudgeDispatcher();
  return { leadId, skipped };
}
