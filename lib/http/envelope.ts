import { ApiError } from "./api-error";
import { isDatabaseUnavailable } from "../db/errors";

export type ErrorEnvelope = { success: false; error: string; message: string };

const NO_STORE = { "Cache-Control": "no-store" };

export function jsonResponse(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { ...NO_STORE, ...headers } });
}

/** Maps any thrown value to the spec's error envelope and an HTTP status. Never leaks internals. */
export function errorResponse(thrown: unknown): Response {
  const error = toApiError(thrown);
  const body: ErrorEnvelope = { success: false, error: error.error, message: error.category };
  return jsonResponse(body, error.status, error.headers);
}

export function toApiError(thrown: unknown): ApiError {
  if (thrown instanceof ApiError) return thrown;
  if (isDatabaseUnavailable(thrown)) {
    // Operators need to tell "down" from "pool exhausted" from "too slow"; codes and
    // adapter kinds carry no query values, so they are safe to log.
    console.warn(JSON.stringify({ level: "warn", msg: "database unavailable", ...unavailableDetail(thrown) }));
    return new ApiError(503, "The database is unavailable; retry shortly", "Service unavailable", {
      "Retry-After": "5",
    });
  }
  // Only the error class is logged: messages of driver errors can echo query values.
  console.error(
    JSON.stringify({ level: "error", msg: "unexpected error", error: (thrown as Error)?.name ?? typeof thrown }),
  );
  return new ApiError(500, "Internal server error", "Server error");
}

function unavailableDetail(thrown: unknown): { error: string; code?: string; kind?: string; reason?: string } {
  const error = thrown as { name?: unknown; code?: unknown; message?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: unknown; code?: unknown } } } };
  const cause = error?.meta?.driverAdapterError?.cause ?? (error as { cause?: { kind?: unknown; code?: unknown } })?.cause;
  const text = (value: unknown) => (typeof value === "string" ? value : undefined);
  return {
    error: text(error?.name) ?? typeof thrown,
    code: text(error?.code) ?? text(cause?.code),
    kind: text(cause?.kind),
    // pg's own errors (pool and connect timeouts) carry no code; their fixed texts hold no data.
    ...(error?.name === "Error" && !error.code ? { reason: text(error.message)?.slice(0, 80) } : {}),
  };
}

/** Runs a handler body, answering any thrown error with the envelope. */
export async function respond(handler: () => Promise<Response>): Promise<Response> {
  try {
    return await handler();
  } catch (thrown) {
    return errorResponse(thrown);
  }
}

/** For every method an endpoint does not serve. */
export function methodNotAllowed(allowed: string): () => Response {
  return () =>
    errorResponse(new ApiError(405, `Method not allowed; use ${allowed}`, "Method not allowed", { Allow: allowed }));
}
