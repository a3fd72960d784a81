import { ApiError } from "./api-error";
import { isDatabaseUnavailable } from "../db/errors";
import { summariseError } from "../log/error-summary";
import { log } from "../log/logger";
import { metrics } from "../operations/metrics";
import { requestContext, type RequestContext } from "./request-context";

export type ErrorEnvelope = { success: false; error: string; message: string };

const NO_STORE = { "Cache-Control": "no-store" };

export function jsonResponse(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { ...NO_STORE, ...headers } });
}

/** Maps any thrown value to the spec's error envelope and an HTTP status. Never leaks internals. */
export function errorResponse(thrown: unknown, context?: RequestContext): Response {
  const error = toApiError(thrown, context);
  const body: ErrorEnvelope = { success: false, error: error.error, message: error.category };
  return jsonResponse(body, error.status, error.headers);
}

export function toApiError(thrown: unknown, context?: RequestContext): ApiError {
  if (thrown instanceof ApiError) return thrown;
  if (isDatabaseUnavailable(thrown)) {
    metrics().databaseErrors.inc({ kind: "unavailable" });
    // Operators need to tell "down" from "pool exhausted" from "too slow"; codes and
    // adapter kinds carry no query values, so they are safe to log.
    log("warn", "db.unavailable", { request_id: context?.requestId, ...summariseError(thrown) });
    return new ApiError(503, "The database is unavailable; retry shortly", "Service unavailable", {
      "Retry-After": "5",
    });
  }
  // The class, code, adapter kind and a reason with its values removed: messages of
  // driver and library errors can echo what was sent (lib/log/error-summary.ts).
  const summary = summariseError(thrown);
  log("error", "unexpected error", { request_id: context?.requestId, ...summary });
  // Driver and Prisma errors carry a code; an error without one is a bug of ours.
  if (summary.code || summary.kind) metrics().databaseErrors.inc({ kind: "unexpected" });
  return new ApiError(500, "Internal server error", "Server error");
}

/**
 * Runs a handler body with the request's context, answering any thrown error with the
 * envelope. Every response carries X-Request-Id, the id on the request's log lines.
 */
export async function respond(request: Request, handler: (context: RequestContext) => Promise<Response>): Promise<Response> {
  const context = requestContext(request);
  let response: Response;
  try {
    response = await handler(context);
  } catch (thrown) {
    response = errorResponse(thrown, context);
  }
  response.headers.set("X-Request-Id", context.requestId);
  return response;
}

/** For every method an endpoint does not serve. */
export function methodNotAllowed(allowed: string): (request: Request) => Promise<Response> {
  return (request) =>
    respond(request, async () => {
      throw new ApiError(405, `Method not allowed; use ${allowed}`, "Method not allowed", { Allow: allowed });
    });
}
