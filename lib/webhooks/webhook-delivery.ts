import type { Tx } from "../db/client";
import type { JobHandler } from "../jobs/dispatcher";
import { log } from "../log/logger";
import { sendWebhook } from "./send-webhook";
import { disableIfStillFailing, recordAttempt } from "./delivery-attempt-store";
import { endpointForDelivery } from "./webhook-endpoint-store";

// The dispatcher's handler for webhook jobs: one signed POST to the endpoint, written to
// the endpoint's delivery log. A disabled or deleted endpoint gets nothing more.

export function webhookHandler(options: { allowPrivate: boolean }): JobHandler {
  return {
    async run(job, now, _lease, memo) {
      // The jobs of a batch mostly go to the same endpoint: it is read (and its secrets
      // decrypted) once per batch, as the batch was claimed.
      const endpoint = job.endpointId ? await memo(`endpoint:${job.endpointId}`, () => endpointForDelivery(job.endpointId!, now())) : null;
      if (!endpoint) return { ok: false, error: "The endpoint was deleted", retry: false };
      if (!endpoint.enabled) return { ok: false, error: "The endpoint is disabled", retry: false };
      const startedAt = now();
      const result = await sendWebhook({
        url: endpoint.url,
        secrets: endpoint.secrets,
        eventId: job.eventId,
        payload: job.payload,
        allowPrivate: options.allowPrivate,
        now,
      });
      const attempt = {
        jobId: job.id,
        endpointId: job.endpointId!,
        eventId: job.eventId,
        eventType: job.eventType,
        attempt: job.attempts,
        startedAt,
        durationMs: result.durationMs,
        statusCode: result.statusCode,
        ok: result.ok,
        error: result.error,
        responseExcerpt: result.responseExcerpt,
      };
      // The delivery log's row is written with the job's outcome (one transaction).
      const record = (tx: Tx) => recordAttempt(tx, attempt, endpoint);
      return result.ok ? { ok: true, record } : { ok: false, error: result.error ?? "Failed", record };
    },
    async exhausted(job, now) {
      if (job.endpointId && (await disableIfStillFailing(job.endpointId, now))) {
        log("warn", "webhook.endpoint_disabled", { endpoint_id: job.endpointId, reason: "failing" });
      }
    },
  };
}
