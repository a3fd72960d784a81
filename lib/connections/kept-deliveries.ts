import { ApiError } from "../http/api-error";
import { log } from "../log/logger";
import { MAX_ANSWERS_PER_DELIVERY } from "./answers";
import { keptUsage } from "./connection-delivery-store";

// What a connection's log may keep of deliveries that made no lead (issue 40, finding 1;
// docs/connections.md "What is kept"). Anyone with a URL-only connection's URL can post, so
// what its log keeps is bounded three ways:
// - a delivery of more than MAX_ANSWERS_PER_DELIVERY answers (./answers.ts) is refused (413),
//   its body not kept and, where the builder's adapter can stop early (Generic), not read to
//   its end: no form asks that many questions, and each answer is a stored entry;
// - the bodies kept per connection ("needs mapping", or refused once the signature held) are
//   at most KEPT_DELIVERIES_PER_CONNECTION rows and KEPT_BYTES_PER_CONNECTION bytes of body
//   and answers. Past that a new one is refused (507, which builders retry) rather than an
//   old one dropped: what is kept stays until the team maps and replays it or deletes it, and
//   the log, the page and a warning line say the log is full;
// - kept rows age out after the team's lead retention, or KEPT_DELIVERY_DAYS without one
//   (lib/maintenance/connection-log-pruning.ts).

export const KEPT_DELIVERIES_PER_CONNECTION = 100;
export const KEPT_BYTES_PER_CONNECTION = 10 * 1024 * 1024;
export const KEPT_DELIVERY_DAYS = 30;

export const TOO_MANY_ANSWERS = `This delivery has more than the ${MAX_ANSWERS_PER_DELIVERY} answers a connection reads: nothing was kept`;

export const LOG_FULL =
  `This connection's log is full (${KEPT_DELIVERIES_PER_CONNECTION} deliveries or ` +
  `${KEPT_BYTES_PER_CONNECTION / 1024 / 1024} MB kept, waiting for a mapping): nothing was kept; ` +
  "the team must replay or delete kept deliveries on the connection's page";

/** The answer to a delivery with more answers than a connection reads. */
export const tooManyAnswers = () => new ApiError(413, TOO_MANY_ANSWERS, "Payload too large");

/**
 * Whether the connection may keep one more body of `bytes` for `submissionId` (a retry of a
 * kept submission replaces its row: that row is not counted). False is logged.
 */
export async function roomToKeep(
  context: { requestId: string },
  connectionId: string,
  submissionId: string | null,
  bytes: number,
): Promise<boolean> {
  const used = await keptUsage(connectionId, submissionId);
  if (used.rows < KEPT_DELIVERIES_PER_CONNECTION && used.bytes + bytes <= KEPT_BYTES_PER_CONNECTION) return true;
  log("warn", "connection.log_full", {
    request_id: context.requestId,
    connection_id: connectionId,
    kept: used.rows,
    kept_bytes: used.bytes,
  });
  return false;
}

/** The answer to a delivery that needs mapping when the connection's log has no room for it. */
export const logFull = () => new ApiError(507, LOG_FULL, "Insufficient storage");
