import { createHash } from "node:crypto";
import { open } from "../api-keys/secret-box";
import { MAX_ANSWERS_PER_DELIVERY, TooManyAnswers, UnknownPayload } from "../connections/answers";
import { BUILDERS, DELIVERY_READ_OPTIONS, keptBody, secretOptional, type BuilderId } from "../connections/builders";
import { countRepeat, findKeptDelivery, keptBytesOf, newDeliveryId, recordUnmade } from "../connections/connection-delivery-store";
import { logFull, roomToKeep, tooManyAnswers } from "../connections/kept-deliveries";
import { findConnectionForIntake, findDeliveredLead, type DeliveredLead } from "../connections/connection-intake-store";
import type { ConnectionForIntake } from "../connections/connection-store";
import { isConnectionToken, signingSecretContext, tokenDigest } from "../connections/connection-token";
import { mapAnswers } from "../connections/map-answers";
import { builderPerson, consentAnswerOf } from "../connections/consent-answer";
import { ApiError, AUTHENTICATION_FAILED, validationError } from "../http/api-error";
import { jsonResponse, toApiError } from "../http/envelope";
import type { RequestContext } from "../http/request-context";
import { readBody, type ReadBody } from "../http/read-body";
import { leadResultBody, leadResultStatus, type CreateLeadResult } from "../leads/create-lead";
import { refusalRowDue } from "../request-log/request-log";
import { parseLeadInput, type LeadInput } from "../leads/parse-lead-input";
import { spendConnectionBudget, spendSignatureFailure } from "../web-forms/form-limits";
import { now as appNow } from "../time/clock";
import { storeLead, type IntakeChannel } from "./store-lead";

// A form builder's delivery to a connection (POST /api/connections/<token>,
// docs/connections.md), in this order: the token must name a connection (404) that is on
// (403); a connection authenticated by its URL alone spends its budget (429); the body is
// read (413, 415); a builder that signs must have signed it with the connection's secret
// (401; a failure spends the failures' own budget, 429 once spent), and only then is the
// connection's budget spent (429); the builder's body
// becomes answers (422 when it is not the builder's shape), the answers the lead's fields
// by the connection's mapping. A submission that already made its lead answers that lead
// and makes nothing (the builder retried). A delivery whose answers make no valid lead
// (no name, an invalid email) is kept whole in the connection's log as "needs mapping"
// (202) while the log has room (507 once full; lib/connections/kept-deliveries.ts). Otherwise
// the lead is stored by the one intake use case, its log row in its transaction. Refusals of
// a known connection are in its log as the request log writes them (a flood is a few rows);
// a body is kept only once its signature is verified, and while the log has room.

export const CONNECTION_NOT_FOUND = "Connection not found";
export const CONNECTION_OFF = "This connection is turned off";
export const INVALID_SIGNATURE = "Invalid signature";
export const WRONG_SECRET_HEADER = "Missing or wrong X-Connection-Secret header";
export const NO_SECRET_YET = "This connection has no signing secret yet: set it on the connection's page";
export const NEEDS_MAPPING = "Delivery kept, no lead made yet: it needs mapping";
/** Builders send every question of the form, with its options: more than create_lead's 64 KiB. */
export const CONNECTION_BODY_BYTES = 256 * 1024;

export type DeliveryResult =
  { kind: "created"; result: CreateLeadResult } | ({ kind: "repeat" } & DeliveredLead) | { kind: "needs_mapping"; reason: string };

/** A delivery's result and the builder it came from (how it is answered: deliveryResponse). */
export type Received = DeliveryResult & { builder: BuilderId };

class RepeatedSubmission extends Error {}

const bodyDigest = (bytes: Uint8Array) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

/**
 * A builder's submission id as stored: as sent when it is valid Unicode; otherwise a digest
 * of its UTF-16 code units (stored as UTF-8, two ids differing only in lone surrogates would
 * both become U+FFFD and the second submission would be answered as the first).
 */
function wellFormedId(id: string | null): string | null {
  if (id === null || id.isWellFormed()) return id;
  return `sha256-utf16:${createHash("sha256").update(Buffer.from(id, "utf16le")).digest("hex")}`;
}

export async function receiveDelivery(options: { request: Request; context: RequestContext; token: string }): Promise<Received> {
  const { request, context } = options;
  const now = appNow();
  const connection = isConnectionToken(options.token) ? await findConnectionForIntake(tokenDigest(options.token), now) : null;
  if (!connection) throw new ApiError(404, CONNECTION_NOT_FOUND, "Not found");

  // What the log keeps of a refusal: the body once its signature held, and the submission's id once read.
  const kept: Kept = { body: null, submissionId: null };
  try {
    if (!connection.enabled) throw new ApiError(403, CONNECTION_OFF, "Forbidden");
    const signed = signs(connection);
    if (!signed) await spendConnectionBudget(context, connection.id);
    const body = signed
      ? await signedBody(request, connection, context)
      : await readBody(request, CONNECTION_BODY_BYTES, DELIVERY_READ_OPTIONS);
    kept.body = body;
    return { ...(await leadFromBody(connection, body, request.headers, context, kept, now)), builder: connection.builder };
  } catch (thrown) {
    const error = toApiError(thrown, context);
    // Refusals come in floods, with a body or without (a bad signature, a spent budget, a
    // connection turned off, a body not of the builder's shape): rows as the request log's
    // refusals (one per error and address per interval). A body verified, then refused, is
    // kept with its row when the connection's log has room: it may be a lead.
    if (refusalRowDue({ connectionId: connection.id }, context.ip, error.status, error.error))
      await recordRefusal(connection, kept, error, context, now).catch(() => undefined);
    throw error;
  }
}

async function recordRefusal(connection: ConnectionForIntake, kept: Kept, error: ApiError, context: RequestContext, now: Date) {
  const row = { ...logRow(connection, kept, now), outcome: "refused" as const, status: error.status, error: error.error };
  const room = row.payload !== null && (await roomToKeep(context, connection.id, row.submissionId, keptBytesOf(row.payload, null)!));
  await recordUnmade(room ? row : { ...row, contentType: null, payload: null });
}

type Kept = { body: ReadBody | null; submissionId: string | null };

/**
 * A verified body → the lead, once per submission: the builder's answers, the mapping, the
 * lead's rules, the lead writer. Also a replay's way (replayDelivery), with the body kept.
 */
async function leadFromBody(
  connection: ConnectionForIntake,
  body: ReadBody,
  headers: Headers,
  context: RequestContext,
  kept: Kept,
  now: Date,
  keptId: string | null = null,
): Promise<DeliveryResult> {
  const delivery = await readDelivery(connection, body, headers, kept);
  // A replay has no headers: a submission whose id came in one (Framer's) keeps the id it was kept under.
  const submissionId = wellFormedId(delivery.submissionId) ?? keptId ?? bodyDigest(body.bytes);
  kept.submissionId = submissionId;
  const key = { connectionId: connection.id, submissionId };
  // A submission seen before is found by the lead's own transaction (its log row's unique
  // key): a new one, the usual case, costs no lookup first.
  const mapped = mapAnswers(delivery.answers, connection.mapping);
  // What the page's mapping editor shows: each answer's key, label and target, never its value.
  const answers = mapped.answers;
  let input: LeadInput;
  try {
    input = parseLeadInput(mapped.fields);
  } catch (refused) {
    if (!(refused instanceof ApiError) || refused.status !== 422) throw refused;
    // The submission made its lead before, under an earlier mapping: the builder's retry.
    const made = await findDeliveredLead(key);
    if (made) return repeat(key, made);
    const reason = mapped.needsMapping ?? refused.error;
    const row = { ...logRow(connection, kept, now), outcome: "needs_mapping" as const, status: 202, error: reason, answers };
    // A replay rewrites the row it came from; anything else needs the log's room.
    if (keptId === null && !(await roomToKeep(context, connection.id, submissionId, keptBytesOf(row.payload, answers)!))) {
      kept.body = null;
      throw logFull();
    }
    await recordUnmade(row);
    return { kind: "needs_mapping", reason };
  }
  const channel: IntakeChannel = {
    team: connection.team,
    apiKeyId: null,
    formId: null,
    connectionId: connection.id,
    repeats: connection.repeats,
    spamChecks: connection.spamChecks,
    consent: connection.consent,
  };
  try {
    const result = await storeLead({ context, contentType: body.contentType }, channel, input, {
      delivery: { id: newDeliveryId(), ...key, answers, repeated: () => new RepeatedSubmission() },
      // The evidence is derived from the answer mapped to "consent"; the answer stays an extra field as sent.
      consentAnswer: mapped.consent ? consentAnswerOf(connection.builder, mapped.consent.value) : undefined,
      consentPerson: builderPerson(connection.builder, delivery.meta),
    });
    return { kind: "created", result };
  } catch (error) {
    // The submission made its lead before (the builder's retry) or meanwhile (a concurrent
    // retry, another instance): its transaction rolled back, the first lead is the answer.
    if (!(error instanceof RepeatedSubmission)) throw error;
    const made = await findDeliveredLead(key);
    if (!made) throw error;
    return repeat(key, made);
  }
}

/** Counts another attempt of a submission that made its lead, and answers that lead. */
async function repeat(key: { connectionId: string; submissionId: string }, made: DeliveredLead): Promise<DeliveryResult> {
  await countRepeat({ ...key, at: appNow() });
  return { kind: "repeat", ...made };
}

/**
 * Makes the lead of a delivery kept as "needs mapping", from its kept body, by the
 * connection's mapping as it is now (Team Settings → Connections → Replay). Its signature
 * held when it arrived; the connection may be off meanwhile (the team replays what it kept).
 * Null when the team has no such kept delivery.
 */
export async function replayDelivery(options: {
  teamId: string;
  deliveryId: string;
  context: RequestContext;
}): Promise<DeliveryResult | null> {
  const found = await findKeptDelivery(options);
  if (!found) return null;
  const { connection, payload, contentType, submissionId } = found;
  const body = keptBody(payload, contentType);
  const now = appNow();
  const kept: Kept = { body, submissionId: null };
  try {
    return await leadFromBody(connection, body, new Headers(), options.context, kept, now, submissionId);
  } catch (thrown) {
    const error = toApiError(thrown, options.context);
    if (error.status >= 500) throw error;
    await recordUnmade({ ...logRow(connection, kept, now), outcome: "needs_mapping", status: 202, error: error.error });
    return { kind: "needs_mapping", reason: error.error };
  }
}

/** Whether the connection's deliveries must be signed: its builder signs and, for Generic, the team set its secret header. */
function signs(connection: ConnectionForIntake): boolean {
  if (!BUILDERS[connection.builder].verify) return false;
  // Generic's secret header is optional: without one, the URL alone authenticates.
  return Boolean(connection.signingSecretCiphertext) || !secretOptional(connection.builder);
}

/**
 * A signing connection's body, once its signature held; then the connection's budget is
 * spent. Anything refused before that (an unreadable body, a missing or wrong signature)
 * spends the failures' budget instead: forgeries never spend the deliveries' (issue 40, finding 2).
 */
async function signedBody(request: Request, connection: ConnectionForIntake, context: RequestContext): Promise<ReadBody> {
  let body: ReadBody;
  try {
    body = await readBody(request, CONNECTION_BODY_BYTES, DELIVERY_READ_OPTIONS);
    verifySignature(connection, body, request.headers);
  } catch (refused) {
    await spendSignatureFailure(context, connection.id);
    throw refused;
  }
  await spendConnectionBudget(context, connection.id);
  return body;
}

function verifySignature(connection: ConnectionForIntake, body: ReadBody, headers: Headers): void {
  const verify = BUILDERS[connection.builder].verify!;
  const sealed = connection.signingSecretCiphertext;
  // A Webflow connection before the team set Webflow's secret: nothing can be verified yet.
  if (!sealed) throw new ApiError(401, NO_SECRET_YET, AUTHENTICATION_FAILED);
  if (!verify(body, headers, signingSecret(connection.id, sealed)))
    throw new ApiError(401, secretOptional(connection.builder) ? WRONG_SECRET_HEADER : INVALID_SIGNATURE, AUTHENTICATION_FAILED);
}

/**
 * A connection's signing secret, opened once per sealed value and kept in this process (the
 * process holds the key that opens it anyway): AES-GCM per delivery cost as much as the HMAC.
 * A new or rolled secret is a new sealed value; the cache is bounded.
 */
const openedSecrets = new Map<string, string>();
function signingSecret(connectionId: string, sealed: string): string {
  const cached = openedSecrets.get(sealed);
  if (cached !== undefined) return cached;
  const secret = open(sealed, signingSecretContext(connectionId));
  if (openedSecrets.size >= 1_000) openedSecrets.clear();
  openedSecrets.set(sealed, secret);
  return secret;
}

/** The builder's answers; more than a connection reads is refused (413) and logged without the body: each would be a stored entry. */
async function readDelivery(connection: ConnectionForIntake, body: ReadBody, headers: Headers, kept: Kept) {
  try {
    const delivery = await BUILDERS[connection.builder].read(body, headers);
    if (delivery.answers.length > MAX_ANSWERS_PER_DELIVERY) throw new TooManyAnswers();
    return delivery;
  } catch (error) {
    if (error instanceof UnknownPayload) throw validationError(error.message);
    if (!(error instanceof TooManyAnswers)) throw error;
    kept.body = null;
    throw tooManyAnswers();
  }
}

function logRow(connection: ConnectionForIntake, kept: Kept, at: Date) {
  return {
    connectionId: connection.id,
    teamId: connection.team.id,
    submissionId: kept.submissionId,
    contentType: kept.body?.contentType || null,
    payload: kept.body ? Buffer.from(kept.body.bytes).toString("utf8") : null,
    answers: null,
    at,
  };
}

/**
 * The connection endpoint's answer: 201 a new lead, 200 a submission's lead made before, 202
 * kept as "needs mapping"; 200 for all three to a builder that takes nothing else (Elementor Pro).
 */
export function deliveryResponse(delivered: Received): Response {
  const status = (usual: number) => (BUILDERS[delivered.builder].onlyOk200 ? 200 : usual);
  switch (delivered.kind) {
    case "created":
      return jsonResponse(leadResultBody(delivered.result), status(leadResultStatus(delivered.result)));
    case "repeat":
      return jsonResponse(leadResultBody({ leadId: delivered.leadId, skipped: [], added: delivered.added }), 200, {
        "Idempotent-Replayed": "true",
      });
    case "needs_mapping":
      return jsonResponse({ success: true, lead_id: null, message: `${NEEDS_MAPPING}: ${delivered.reason}` }, status(202));
  }
}
