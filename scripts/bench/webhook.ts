import http from "node:http";
import type { AddressInfo } from "node:net";
import { createApiKey } from "../../lib/api-keys/api-key-store";
import { db } from "../../lib/db/client";
import { createTeam } from "../../lib/teams/team-store";
import { createEndpoint } from "../../lib/webhooks/webhook-endpoint-store";

// The webhook row of `npm run bench` (issue 13): create_lead for a team with one webhook
// endpoint, whose deliveries the server's dispatcher sends while the load runs, to a local
// receiver that answers 204 at once. The dispatcher must not cost intake more than 10 %.

export type WebhookBench = {
  auth: Record<string, string>;
  received: () => number;
  /** Waits until the outbox is empty (every delivery sent); returns the seconds it took. */
  drain: (timeoutSeconds: number) => Promise<number>;
  close: () => Promise<void>;
};

export async function webhookBench(ownerUserId: string | undefined): Promise<WebhookBench> {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const team = await createTeam({ slug: "bench-hooks", name: "Bench with a webhook", ownerUserId, defaultPhoneCountry: "GB" });
  const key = await createApiKey({ teamId: team.id, description: "npm run bench (webhook)" });
  await createEndpoint({ teamId: team.id, url, description: "bench receiver", events: ["lead.created"], actor: { userId: null, ip: null, via: "cli" } });
  return {
    auth: { "X-API-Key": key.keyId, "X-API-Secret": key.secret },
    received: () => received,
    drain: async (timeoutSeconds) => {
      const started = performance.now();
      while ((await db().job.count({ where: { state: { in: ["pending", "running"] } } })) > 0) {
        if (performance.now() - started > timeoutSeconds * 1000) throw new Error(`Webhook deliveries not drained within ${timeoutSeconds} s`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      return (performance.now() - started) / 1000;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
