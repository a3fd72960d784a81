// Waking the job dispatchers of this process after a commit that queued work, so it
// starts now rather than at the next poll. Domain code (a lead's outbox, an import, a
// resend) calls these; the dispatchers register themselves when the server starts
// (lib/startup/dispatchers.ts). This module imports nothing, so no domain module
// depends on the job registry or its handlers. Route handlers are bundled apart from
// instrumentation, so the wake functions live on globalThis.

type Wakers = { deliveries?: () => void; imports?: () => void };

const holder = globalThis as unknown as { leadIntakeWakers?: Wakers };

/** Called once by the process's dispatchers when they start. */
export function registerWakers(wakers: Wakers): void {
  holder.leadIntakeWakers = wakers;
}

/** After a commit that wrote delivery jobs (webhooks, emails). */
export function wakeDeliveries(): void {
  holder.leadIntakeWakers?.deliveries?.();
}

/** After an import was queued. */
export function wakeImports(): void {
  holder.leadIntakeWakers?.imports?.();
}
