import { env } from "../env";
import { intakeNeedsTheProcess } from "../operations/intake-activity";
import { log } from "../log/logger";
import { chatHandler } from "../chat/chat-delivery";
import { emailHandler } from "../notifications/new-lead-email";
import { webhookHandler } from "../webhooks/webhook-delivery";
import { removeAbandonedDrafts } from "../imports/import-drafts";
import { importHandler } from "../imports/import-job";
import { Dispatcher } from "../jobs/dispatcher";
import { startDashboardWarmUpSchedule } from "../maintenance/dashboard-warm-up";
import { startHeldExpirySchedule } from "../maintenance/held-expiry";
import { startNewLeadReminderSchedule } from "../maintenance/new-lead-reminders";
import { startSpamRetentionSchedule } from "../maintenance/spam-retention";
import { startWaitingLeadSchedule } from "../maintenance/waiting-leads";
import { registerWakers } from "../jobs/wake";

// The dispatchers of this app process and their handlers, registered here and nowhere
// else; domain code wakes them through lib/jobs/wake.ts. instrumentation.ts starts them
// when the server starts (`next start`, or scripts/serve.mjs under `npm start`), in every instance;
// scripts/serve.mjs drains it on SIGTERM through DRAIN_HOOK. Route handlers are bundled
// apart from instrumentation, so the instances live on globalThis.

const holder = globalThis as unknown as { leadIntakeDispatcher?: Dispatcher };
/** scripts/serve.mjs awaits this function (if set) before the process exits. */
export const DRAIN_HOOK = Symbol.for("lead-intake.drain");

/** The dispatcher's share of the time while intake saturates the process. */
export const DELIVERY_SHARE = 0.05;

export function startProcessDispatcher(): Dispatcher {
  if (holder.leadIntakeDispatcher) return holder.leadIntakeDispatcher;
  const settings = env();
  const baseUrl = (settings.NEXTAUTH_URL ?? "http://localhost:3000").replace(/\/+$/, "");
  const dispatcher = new Dispatcher({
    handlers: {
      webhook: webhookHandler({ allowPrivate: settings.WEBHOOK_ALLOW_PRIVATE_TARGETS }),
      email: emailHandler({ baseUrl }),
      chat: chatHandler({ baseUrl, allowPrivate: settings.WEBHOOK_ALLOW_PRIVATE_TARGETS }),
    },
    leaseMs: settings.JOB_LEASE_SECONDS * 1000,
    retryBaseMs: settings.JOB_RETRY_BASE_SECONDS * 1000,
    retentionMs: settings.JOB_RETENTION_DAYS * 24 * 60 * 60 * 1000,
    // While leads arrive faster than the process has room for, deliveries take at most a
    // twentieth of the time (docs/webhooks.md "Intake first"): the issue's budget is "the
    // dispatcher costs intake at most 10 %", and a delivery costs more CPU than a create.
    giveWayTo: { busy: intakeNeedsTheProcess, share: DELIVERY_SHARE, maxPauseMs: 1_000 },
  });
  // Imports have a lane of their own: one long import never holds up a delivery.
  const imports = new Dispatcher({
    handlers: { import: importHandler },
    lane: "imports",
    batchSize: 1,
    // Drafts never started within a day go, with their files (lib/imports/import-drafts.ts).
    sweep: removeAbandonedDrafts,
    leaseMs: settings.JOB_LEASE_SECONDS * 1000,
    retryBaseMs: settings.JOB_RETRY_BASE_SECONDS * 1000,
  });
  holder.leadIntakeDispatcher = dispatcher;
  registerWakers({ deliveries: () => dispatcher.nudge(), imports: () => imports.nudge() });
  dispatcher.start();
  imports.start();
  // The New-lead reminder (docs/routing.md "Emails"): every instance ticks, one a minute runs it.
  const stopReminders = startNewLeadReminderSchedule();
  // Leads waiting for the next member on duty (docs/routing.md "Assignment rules"): likewise.
  const stopWaiting = startWaitingLeadSchedule();
  // The quarantine's retention (docs/spam.md "Retention and Empty spam"): likewise, one an hour.
  const stopSpamRetention = startSpamRetentionSchedule();
  // Leads → Overview's rollup of the last 90 days (docs/attribution.md "Reading a range"): likewise, one an hour.
  const stopDashboardWarmUp = startDashboardWarmUpSchedule();
  // Submissions held until confirmed whose link expired (docs/consent.md): likewise, one every 10 minutes.
  const stopHeldExpiry = startHeldExpirySchedule();
  (globalThis as Record<symbol, unknown>)[DRAIN_HOOK] = (graceMs: number) => {
    stopReminders();
    stopWaiting();
    stopSpamRetention();
    stopDashboardWarmUp();
    stopHeldExpiry();
    return Promise.all([dispatcher.stop(graceMs), imports.stop(graceMs)]);
  };
  log("info", "jobs.dispatcher_started", { worker: dispatcher.workerId });
  return dispatcher;
}
