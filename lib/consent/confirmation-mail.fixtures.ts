import assert from "node:assert/strict";
import { Dispatcher } from "../jobs/dispatcher";
import { emailHandler } from "../notifications/new-lead-email";
import { now } from "../time/clock";

// What the double opt-in tests share (double-opt-in.test.ts, lib/intake/held-submissions.test.ts):
// sending the due emails to the local SMTP sink, and reading the link out of one. Imported with
// `await import(…)` after useTestDatabase(), like the lib modules it uses.

export const BASE_URL = "https://leads.example.test";

/** A function that sends every due job (emails; webhooks are left pending) and returns the messages `received` got meanwhile. */
export function mailDelivery<Message>(received: Message[]) {
  return async (): Promise<Message[]> => {
    const before = received.length;
    const dispatcher = new Dispatcher({
      handlers: { email: emailHandler({ baseUrl: BASE_URL }) },
      now: () => new Date(now().getTime() + 1_000),
      leaseMs: 60_000,
      retryBaseMs: 30_000,
    });
    while ((await dispatcher.runOnce()) > 0);
    return received.slice(before);
  };
}

/** The confirmation page's address in an email (soft line breaks of quoted-printable undone). */
export function linkIn(raw: string): string {
  const match = raw.replace(/=\r?\n/g, "").match(/https:\/\/leads\.example\.test\/api\/consent\/[^\s"<>]+/);
  assert.ok(match, "the email holds the link");
  return match[0].replace(/\/unsubscribe$/, "");
}
