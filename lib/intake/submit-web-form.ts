import { ApiError } from "../http/api-error";
import { toApiError } from "../http/envelope";
import type { RequestContext } from "../http/request-context";
import { readFields } from "../http/read-body";
import type { CreateLeadResult } from "../leads/create-lead";
import { LIMITS } from "../leads/lead-input-schema";
import type { RawField } from "../http/read-body";
import { parseLeadInput } from "../leads/parse-lead-input";
import { recordHeld, recordRefused, recordSpam, type RequestLogDraft } from "../request-log/request-log";
import { requestOrigin } from "../web-forms/allowed-origins";
import { CHALLENGE_FIELD, spendableSolution, verifyFormSolution } from "../web-forms/challenge";
import { FORM_CONTROL_FIELDS, HONEYPOT_FIELD } from "../web-forms/form-fields";
import { spendAddressBudget, spendFormBudget } from "../web-forms/form-limits";
import { countSpam, type FormForIntake } from "../web-forms/web-form-store";
import { logTarget, storeSubmission, type IntakeChannel } from "./store-lead";

// A web form's submission (POST /api/forms/<id>), in this order: the form must exist and
// be enabled (404), the request must come from one of its allowed origins (403), the
// address must have budget left (429); then the body is read. A filled honeypot is
// answered as stored and stores nothing; the proof-of-work solution must be valid and
// unused (403); the lead must pass its rules (422); only then is the form's own budget
// spent (429), so posts that cost their sender nothing cannot lock a form; then the lead
// is stored by the same use case as create_lead. Every refusal of a known form goes to
// that form's request log.

export const FORM_NOT_FOUND = "Form not found";
export const ORIGIN_NOT_ALLOWED = "This website is not allowed to send leads to this form";

/** What became of a post: its lead, spam (answered as stored), or held until the person confirms by email (docs/consent.md). */
export type FormSubmission = { kind: "created"; result: CreateLeadResult } | { kind: "spam" } | { kind: "held" };

/** A web form as the intake's channel (its posts, and its held submissions once confirmed: confirm-held.ts). */
export function formChannel(form: FormForIntake): IntakeChannel {
  return {
    team: form.team,
    apiKeyId: null,
    formId: form.id,
    source: form.source,
    repeats: form.repeats,
    spamChecks: form.spamChecks,
    consent: form.consentVersion && {
      ...form.consentVersion,
      doubleOptIn: form.doubleOptIn,
      hold: form.doubleOptIn && form.doubleOptInHold,
    },
  };
}

function valueOf(fields: readonly RawField[], name: string): string | null {
  const value = fields.find(([field]) => field === name)?.[1];
  return typeof value === "string" ? value : null;
}

const filled = (value: unknown) => (typeof value === "string" ? value.trim() !== "" : value !== null && value !== undefined);

export async function submitWebForm(options: {
  request: Request;
  context: RequestContext;
  form: FormForIntake;
  /** The origins the form accepts: its own list and this deployment's (the hosted form page). */
  allowedOrigins: readonly string[];
  /** The status the caller answers a stored lead with (201 JSON, 303 a browser form): logged for spam. */
  successStatus: number;
}): Promise<FormSubmission> {
  const { request, context, form } = options;
  const draft: RequestLogDraft = { context, contentType: request.headers.get("content-type") };
  const channel = formChannel(form);
  try {
    if (!form.enabled) throw new ApiError(404, FORM_NOT_FOUND, "Not found");
    const origin = requestOrigin(request.headers);
    if (!origin || !options.allowedOrigins.includes(origin)) throw new ApiError(403, ORIGIN_NOT_ALLOWED, "Forbidden");
    await spendAddressBudget(context, form.id);
    const fields = await readFields(request, LIMITS.bodyBytes);
    if (fields.some(([name, value]) => name === HONEYPOT_FIELD && filled(value))) {
      await countSpam(form.id);
      await recordSpam(draft, logTarget(channel), options.successStatus);
      return { kind: "spam" };
    }
    const solution = form.challenge ? await verifyFormSolution(valueOf(fields, CHALLENGE_FIELD), form.id) : null;
    const input = parseLeadInput(fields.filter(([name]) => !FORM_CONTROL_FIELDS.has(name.replace(/\[\]$/, ""))));
    const stored = await storeSubmission(draft, channel, input, {
      spentChallenge: solution && spendableSolution(solution),
      admit: () => spendFormBudget(context, form.id),
    });
    if (stored.kind === "held") {
      await recordHeld(draft, logTarget(channel), options.successStatus);
      return { kind: "held" };
    }
    return stored;
  } catch (thrown) {
    const error = toApiError(thrown, context);
    await recordRefused(draft, logTarget(channel), error);
    throw error;
  }
}
