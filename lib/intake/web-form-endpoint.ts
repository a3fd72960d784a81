import { env } from "../env";
import { ApiError } from "../http/api-error";
import { errorResponse, jsonResponse, toApiError } from "../http/envelope";
import { requestContext } from "../http/request-context";
import { LEAD_CREATED, leadResultBody, leadResultStatus } from "../leads/create-lead";
import { requestOrigin } from "../web-forms/allowed-origins";
import { formChallenge } from "../web-forms/challenge";
import { spendChallengeBudget } from "../web-forms/form-limits";
import { visitorErrorPage } from "../web-forms/visitor-page";
import { findFormForIntake, type FormForIntake } from "../web-forms/web-form-store";
import { FORM_NOT_FOUND, submitWebForm, ORIGIN_NOT_ALLOWED } from "./submit-web-form";

// The answers of the public web form endpoints (docs/web-forms.md): a browser's form post
// is redirected (303) or shown a page that says what to fix; a `fetch` asking for JSON
// gets the spec's envelope. CORS headers go only to the form's allowed origins.

/** This deployment's origin: the hosted form page /f/<id> posts from it. */
function ownOrigin(request: Request): string {
  return new URL(env().NEXTAUTH_URL ?? request.url).origin;
}

const allowedOrigins = (form: FormForIntake, request: Request) => [...form.allowedOrigins, ownOrigin(request)];

/** A `fetch` that asked for JSON (or sent it); anything else is a browser's form post. */
export function wantsJson(headers: Headers): boolean {
  return /application\/json/i.test(headers.get("accept") ?? "") || /^application\/json/i.test(headers.get("content-type") ?? "");
}

/** CORS response headers for a request from one of the form's allowed origins; none otherwise. */
export function corsHeaders(form: FormForIntake | null, origin: string | null): Record<string, string> {
  if (!form || !origin || !form.enabled || !form.allowedOrigins.includes(origin)) return { Vary: "Origin" };
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Expose-Headers": "X-Request-Id, Retry-After",
    Vary: "Origin",
  };
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/** Where the visitor's "back" link goes: the page the form was on, if it is one of the form's origins. */
function backUrl(request: Request, origins: readonly string[]): string | null {
  const referer = request.headers.get("referer");
  if (!referer) return null;
  try {
    return origins.includes(new URL(referer).origin) ? referer : null;
  } catch {
    return null;
  }
}

/** The JSON answer's message for a held submission: the person is to confirm by email. */
export const HELD_MESSAGE = "Received: please confirm by the link we emailed you";

const notFound = () => new ApiError(404, FORM_NOT_FOUND, "Not found");

/** POST /api/forms/<id>. */
export async function answerFormPost(request: Request, formId: string): Promise<Response> {
  const context = requestContext(request);
  const json = wantsJson(request.headers);
  let form: FormForIntake | null = null;
  let response: Response;
  try {
    form = await findFormForIntake(formId);
    if (!form) throw notFound();
    const submission = await submitWebForm({
      request,
      context,
      form,
      allowedOrigins: allowedOrigins(form, request),
      successStatus: json ? 201 : 303,
    });
    if (json) {
      // Spam is answered like a new lead, without a lead id: nothing was stored. A held
      // submission likewise (its lead is created once the person confirms: docs/consent.md).
      response =
        submission.kind === "created"
          ? jsonResponse(leadResultBody(submission.result), leadResultStatus(submission.result))
          : jsonResponse({ success: true, lead_id: null, message: submission.kind === "held" ? HELD_MESSAGE : LEAD_CREATED }, 201);
    } else {
      const location = form.successUrl ?? `${ownOrigin(request)}/f/${form.id}/thanks`;
      response = new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } });
    }
  } catch (thrown) {
    const error = toApiError(thrown, context);
    response = json
      ? errorResponse(error, context)
      : visitorErrorPage({
          status: error.status,
          error: error.error,
          backUrl: form ? backUrl(request, allowedOrigins(form, request)) : null,
          headers: error.headers,
        });
  }
  withHeaders(response, corsHeaders(form, requestOrigin(request.headers)));
  response.headers.set("X-Request-Id", context.requestId);
  return response;
}

/** OPTIONS /api/forms/<id> (and its challenge): the CORS preflight of a `fetch` from an allowed origin. */
export async function answerFormPreflight(request: Request, formId: string, method: "GET" | "POST"): Promise<Response> {
  const context = requestContext(request);
  try {
    const form = await findFormForIntake(formId);
    if (!form || !form.enabled) throw notFound();
    const origin = requestOrigin(request.headers);
    const cors = corsHeaders(form, origin);
    if (!cors["Access-Control-Allow-Origin"]) throw new ApiError(403, ORIGIN_NOT_ALLOWED, "Forbidden");
    return new Response(null, {
      status: 204,
      headers: {
        ...cors,
        "Access-Control-Allow-Methods": method,
        "Access-Control-Allow-Headers": "Content-Type, Accept",
        "Access-Control-Max-Age": "600",
        Vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
      },
    });
  } catch (thrown) {
    return errorResponse(thrown, context);
  }
}

/** GET /api/forms/<id>/challenge: a new proof-of-work challenge for the form's widget. */
export async function answerChallenge(request: Request, formId: string): Promise<Response> {
  const context = requestContext(request);
  let form: FormForIntake | null = null;
  let response: Response;
  try {
    form = await findFormForIntake(formId);
    if (!form || !form.enabled) throw notFound();
    // A same-origin GET carries no Origin header; any other must be one the form allows.
    const origin = request.headers.get("origin");
    if (origin !== null && !allowedOrigins(form, request).includes(requestOrigin(request.headers) ?? "")) {
      throw new ApiError(403, ORIGIN_NOT_ALLOWED, "Forbidden");
    }
    await spendChallengeBudget(context, form.id);
    response = jsonResponse(await formChallenge(form.id), 200);
  } catch (thrown) {
    response = errorResponse(thrown, context);
  }
  withHeaders(response, corsHeaders(form, requestOrigin(request.headers)));
  response.headers.set("X-Request-Id", context.requestId);
  return response;
}
