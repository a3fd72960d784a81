import type { Tx } from "../db/client";
import type { ApiError } from "../http/api-error";
import { mediaTypeOf } from "../http/read-body";
import type { RequestContext } from "../http/request-context";
import { log } from "../log/logger";
import { summariseError } from "../log/error-summary";
import { afterRequestRecorded, recordRequest, type BodyEncoding } from "./request-log-store";

// What the intake writes to a key's request log, and when. A created lead's row commits
// in the lead's transaction; a refusal is one insert after the answer is known. Writing
// the log never changes the answer: a failed refusal insert is logged and dropped.

export type RequestLogDraft = { context: RequestContext; contentType: string | null };
type LogKey = { keyId: string; teamId: string };

/** json | urlencoded | multipart | other | none, from the Content-Type header. */
export function bodyEncoding(contentType: string | null): BodyEncoding {
  const media = mediaTypeOf(contentType);
  if (!media) return "none";
  if (media === "application/json") return "json";
  if (media === "application/x-www-form-urlencoded") return "urlencoded";
  if (media === "multipart/form-data") return "multipart";
  return "other";
}

function entry(draft: RequestLogDraft, key: LogKey) {
  return { teamId: key.teamId, apiKeyId: key.keyId, ip: draft.context.ip, encoding: bodyEncoding(draft.contentType) };
}

type IntakeKey = { keyId: string; team: { id: string } };

/** A created lead's row, written in the lead's transaction (`tx`). */
export async function recordCreated(draft: RequestLogDraft, key: IntakeKey, leadId: string, tx: Tx): Promise<void> {
  await recordRequest({ ...entry(draft, { keyId: key.keyId, teamId: key.team.id }), status: 201, leadId }, tx);
}

/** After the lead's transaction committed: counts the row towards the team's next pruning. */
export function createdCommitted(key: IntakeKey): void {
  afterRequestRecorded(key.team.id);
}

/** An idempotent replay: the stored answer, and the lead it names. */
export async function recordReplayed(draft: RequestLogDraft, key: IntakeKey, outcome: { status: number; body: string }) {
  let leadId: unknown;
  try {
    leadId = (JSON.parse(outcome.body) as { lead_id?: unknown }).lead_id;
  } catch {
    leadId = null;
  }
  await write(draft, { keyId: key.keyId, teamId: key.team.id }, {
    status: outcome.status,
    leadId: typeof leadId === "string" ? leadId : null,
    error: "Replayed: Idempotency-Key",
  });
}

// A key over its request budget is refused many times a second under a flood: one row per
// key per interval says so without a write per refused request.
const RATE_LIMITED_EVERY_MS = 10_000;
const lastRateLimited = new Map<string, number>();

/** A refused request of a known key: its status and the envelope's error text. */
export async function recordRefused(draft: RequestLogDraft, key: LogKey, error: ApiError): Promise<void> {
  // The database is what failed: writing to it would wait for the same timeout again.
  if (error.status === 503) return;
  if (error.status === 429) {
    const now = Date.now();
    if (now - (lastRateLimited.get(key.keyId) ?? 0) < RATE_LIMITED_EVERY_MS) return;
    lastRateLimited.set(key.keyId, now);
  }
  await write(draft, key, { status: error.status, error: error.error });
}

async function write(draft: RequestLogDraft, key: LogKey, outcome: { status: number; leadId?: string | null; error?: string | null }) {
  try {
    await recordRequest({ ...entry(draft, key), ...outcome });
    afterRequestRecorded(key.teamId);
  } catch (thrown) {
    log("warn", "request_log.write_failed", { request_id: draft.context.requestId, ...summariseError(thrown) });
  }
}
