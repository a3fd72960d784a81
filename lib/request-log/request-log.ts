import type { Tx } from "../db/client";
import type { ApiError } from "../http/api-error";
import { mediaTypeOf } from "../http/read-body";
import type { RequestContext } from "../http/request-context";
import { log } from "../log/logger";
import { now as clock } from "../time/clock";
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
  afterRequestRecorded(target);
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

// Refusals come in floods: a key over its request budget is refused many times a second,
// a bot fills a form's honeypot as fast, and anyone can post garbage, or a foreign Origin,
// to a public form from many addresses. The log says so without a write per request
// (issue 27, finding 3): a 429 or a spam row at most once per channel (key or form) per
// interval; any other refusal once per channel, address and error per interval, and at
// most REFUSAL_ROWS_PER_INTERVAL of them per channel. Pruning is per channel too
// (./request-log-store.ts), so one noisy form cannot push out another's history. The
// counters live in this process (N instances write at most N times as many rows) and go by
// the app's clock (lib/time/clock.ts), which tests move.
const ROW_INTERVAL_MS = 10_000;
const REFUSAL_ROWS_PER_INTERVAL = 10;
const MAX_TRACKED = 10_000;
const lastRow = new Map<string, number>();
const channelWindows = new Map<string, { since: number; rows: number }>();

/** What refusal rows are counted by: a key, a web form, or a form builder's connection (whose rows live in its own log). */
type RefusalChannel = Pick<RequestTarget, "apiKeyId" | "formId"> & { connectionId?: string | null };

const channelOf = (target: RefusalChannel) =>
  target.apiKeyId ? `key:${target.apiKeyId}` : target.connectionId ? `connection:${target.connectionId}` : `form:${target.formId}`;

/** True, and remembered, when `id` had no row in the last interval. */
function onePerInterval(id: string, now: number): boolean {
  const last = lastRow.get(id);
  // A clock set back (a test clock, a corrected system clock) starts a new interval.
  if (last !== undefined && now >= last && now - last < ROW_INTERVAL_MS) return false;
  if (lastRow.size >= MAX_TRACKED) lastRow.clear();
  lastRow.set(id, now);
  return true;
}

/** True when the channel has written fewer than REFUSAL_ROWS_PER_INTERVAL refusal rows this interval. */
function channelHasRoom(channel: string, now: number): boolean {
  const window = channelWindows.get(channel);
  if (window && now >= window.since && now - window.since < ROW_INTERVAL_MS) {
    if (window.rows >= REFUSAL_ROWS_PER_INTERVAL) return false;
    window.rows++;
    return true;
  }
  if (channelWindows.size >= MAX_TRACKED) channelWindows.clear();
  channelWindows.set(channel, { since: now, rows: 1 });
  return true;
}

/** Whether a refusal of `target` gets a row now. */
export function refusalRowDue(target: RefusalChannel, ip: string | null, status: number, error: string, now = clock().getTime()): boolean {
  const channel = channelOf(target);
  if (status === 429) return onePerInterval(`${channel}|429`, now);
  // Checked first: a repeat from the same address must not use up the channel's room.
  if (!onePerInterval(`${channel}|${ip}|${status}|${error}`, now)) return false;
  return channelHasRoom(channel, now);
}

/** A refused request of a known key or form: its status and the envelope's error text. */
export async function recordRefused(draft: RequestLogDraft, target: RequestTarget, error: ApiError): Promise<void> {
  // The database is what failed: writing to it would wait for the same timeout again.
  if (error.status === 503) return;
  if (!refusalRowDue(target, draft.context.ip, error.status, error.error)) return;
  await write(draft, target, { status: error.status, error: error.error });
}

export const SPAM_NOTE = "Spam: the honeypot field was filled; answered as stored, nothing stored";

/** A web form submission with its honeypot filled, answered `status` as if stored. */
export async function recordSpam(draft: RequestLogDraft, target: RequestTarget, status: number): Promise<void> {
  if (!onePerInterval(`${channelOf(target)}|spam`, clock().getTime())) return;
  await write(draft, target, { status, error: SPAM_NOTE });
}

export const HELD_NOTE = "Held: double opt-in, the lead is created once the person confirms by the emailed link";

/** A submission held until the person confirms (docs/consent.md), answered `status` as stored; no lead yet. */
export async function recordHeld(draft: RequestLogDraft, target: RequestTarget, status: number): Promise<void> {
  await write(draft, target, { status, error: HELD_NOTE });
}

async function write(
  draft: RequestLogDraft,
  target: RequestTarget,
  outcome: { status: number; leadId?: string | null; error?: string | null },
) {
  try {
    await recordRequest({ ...entry(draft, target), ...outcome });
    afterRequestRecorded(target);
  } catch (thrown) {
    log("warn", "request_log.write_failed", { request_id: draft.context.requestId, ...summariseError(thrown) });
  }
}
