import type { Tx } from "../db/client";
import type { ApiError } from "../http/api-error";
import { mediaTypeOf } from "../http/read-body";
import type { RequestContext } from "../http/request-context";
import { log } from "../log/logger";
import { summariseError } from "../log/error-summary";
import { afterRequestRecorded, recordRequest, type BodyEncoding, type RequestTarget } from "./request-log-store";

// What the intake writes to a key's or a web form's request log, and when. A created lead's row commits
// in the lead's transaction; a refusal is one insert after the answer is known. Writing
// the log never changes the answer: a failed refusal insert is logged and dropped.

export type RequestLogDraft = { context: RequestContext; contentType: string | null };

/** json | urlencoded | multipart | other | none, from the Content-Type header. */
export function bodyEncoding(contentType: string | null): BodyEncoding {
  const media = mediaTypeOf(contentType);
  if (!media) return "none";
  if (media === "application/json") return "json";
  if (media === "application/x-www-form-urlencoded") return "urlencoded";
  if (media === "multipart/form-data") return "multipart";
  return "other";
}

function entry(draft: RequestLogDraft, target: RequestTarget) {
  return { ...target, ip: draft.context.ip, encoding: bodyEncoding(draft.contentType) };
}

/** A created lead's row, written in the lead's transaction (`tx`). */
export async function recordCreated(draft: RequestLogDraft, target: RequestTarget, leadId: string, tx: Tx): Promise<void> {
  await recordRequest({ ...entry(draft, target), status: 201, leadId }, tx);
}

/** After the lead's transaction committed: counts the row towards the team's next pruning. */
export function createdCommitted(target: RequestTarget): void {
  afterRequestRecorded(target.teamId);
}

/** An idempotent replay: the stored answer, and the lead it names. */
export async function recordReplayed(draft: RequestLogDraft, target: RequestTarget, outcome: { status: number; body: string }) {
  let leadId: unknown;
  try {
    leadId = (JSON.parse(outcome.body) as { lead_id?: unknown }).lead_id;
  } catch {
    leadId = null;
  }
  await write(draft, target, {
    status: outcome.status,
    leadId: typeof leadId === "string" ? leadId : null,
    error: "Replayed: Idempotency-Key",
  });
}

// A key or form over its request budget is refused many times a second under a flood, and
// a spam bot fills a form's honeypot as fast: one row per key or form and kind per interval
// says so without a write per request (a form's card also counts every spam submission).
const FLOOD_ROW_EVERY_MS = 10_000;
const lastFloodRow = new Map<string, number>();

function floodRowDue(target: RequestTarget, kind: string): boolean {
  const id = `${kind}:${target.apiKeyId ?? target.formId}`;
  const now = Date.now();
  if (now - (lastFloodRow.get(id) ?? 0) < FLOOD_ROW_EVERY_MS) return false;
  if (lastFloodRow.size > 10_000) lastFloodRow.clear();
  lastFloodRow.set(id, now);
  return true;
}

/** A refused request of a known key or form: its status and the envelope's error text. */
export async function recordRefused(draft: RequestLogDraft, target: RequestTarget, error: ApiError): Promise<void> {
  // The database is what failed: writing to it would wait for the same timeout again.
  if (error.status === 503) return;
  if (error.status === 429 && !floodRowDue(target, "429")) return;
  await write(draft, target, { status: error.status, error: error.error });
}

export const SPAM_NOTE = "Spam: the honeypot field was filled; answered as stored, nothing stored";

/** A web form submission with its honeypot filled, answered `status` as if stored. */
export async function recordSpam(draft: RequestLogDraft, target: RequestTarget, status: number): Promise<void> {
  if (!floodRowDue(target, "spam")) return;
  await write(draft, target, { status, error: SPAM_NOTE });
}

async function write(
  draft: RequestLogDraft,
  target: RequestTarget,
  outcome: { status: number; leadId?: string | null; error?: string | null },
) {
  try {
    await recordRequest({ ...entry(draft, target), ...outcome });
    afterRequestRecorded(target.teamId);
  } catch (thrown) {
    log("warn", "request_log.write_failed", { request_id: draft.context.requestId, ...summariseError(thrown) });
  }
}
