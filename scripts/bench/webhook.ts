import { fork } from "node:child_process";
import path from "node:path";
import { createApiKey } from "../../lib/api-keys/api-key-changes";
import { db } from "../../lib/db/client";
import { createTeam } from "../../lib/teams/team-store";
import { createEndpoint } from "../../lib/webhooks/webhook-endpoint-changes";

// The webhook rows of `npm run bench` (issue 13): create_lead for a team with one webhook
// endpoint, whose deliveries the server's dispatcher sends while the load runs, to a local
// receiver that answers 204 at once (a process of its own: scripts/bench/webhook-receiver.mjs).
// The dispatcher must not cost intake more than 10 %.

export type WebhookBench = {
  auth: Record<string, string>;
  received: () => Promise<number>;
  /** Waits until the outbox is empty (every delivery sent); returns the seconds it took. */
  drain: (timeoutSeconds: number) => Promise<number>;
  close: () => Promise<void>;
};

export type Receiver = { url: string; received: () => Promise<number>; close: () => Promise<void> };

/** Starts the receiver (scripts/bench/webhook-receiver.mjs): its deliveries' URL, how many it has received, and close. */
export async function startReceiver(): Promise<Receiver> {
  const receiver = fork(path.join(import.meta.dirname, "webhook-receiver.mjs"), [], { stdio: ["ignore", "pipe", "inherit", "ipc"] });
  const port = await new Promise<number>((resolve, reject) => {
    receiver.once("error", reject);
    receiver.stdout!.once("data", (chunk: Buffer) => resolve(Number(chunk.toString("utf8").trim())));
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    url: `${base}/hooks`,
    received: async () => Number(await (await fetch(`${base}/count`)).text()),
    close: async () => {
      receiver.disconnect();
      await new Promise((resolve) => (receiver.exitCode === null ? receiver.once("exit", resolve) : resolve(null)));
    },
  };
}

/** Waits until no job of `where` (every team's when empty) is pending or running; returns the seconds it took. */
export async function drainJobs(timeoutSeconds: number, where: { teamId?: string } = {}): Promise<number> {
  const started = performance.now();
  while ((await db().job.count({ where: { ...where, state: { in: ["pending", "running"] } } })) > 0) {
    if (performance.now() - started > timeoutSeconds * 1000) throw new Error(`Webhook deliveries not drained within ${timeoutSeconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return (performance.now() - started) / 1000;
}

export async function webhookBench(ownerUserId: string | undefined): Promise<WebhookBench> {
  const receiver = await startReceiver();
  const url = receiver.url;
  const team = await createTeam({ slug: "bench-hooks", name: "Bench with a webhook", ownerUserId, defaultPhoneCountry: "GB" });
  const key = await createApiKey({ teamId: team.id, description: "npm run bench (webhook)" });
  await createEndpoint({
    teamId: team.id,
    url,
    description: "bench receiver",
    events: ["lead.created"],
    actor: { userId: null, ip: null, via: "cli" },
  });
  return {
    auth: { "X-API-Key": key.keyId, "X-API-Secret": key.secret },
    received: receiver.received,
    drain: (timeoutSeconds) => drainJobs(timeoutSeconds),
    close: receiver.close,
  };
}
