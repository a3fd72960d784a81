import { execFileSync } from "node:child_process";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { db } from "../../lib/db/client";
import { startWebhookReceiver, type WebhookReceiver } from "../../test/support/webhook-receiver";
import { createEndpoint, revealSigningSecret } from "../../lib/webhooks/webhook-endpoint-changes";
import { BASE_URL, CREATE_LEAD, authHeaders, newTeamWithKey } from "../support/fixtures";
import { demoKey, readDatabase, startServer, type ServerProcess } from "../support/server-process";

// Webhooks over real HTTP against `next start`: a lead created through the API reaches a
// local receiver once, signed (the receiver verifies with the standardwebhooks package);
// a receiver that is down gets the event once it is back, after retries; a server killed
// (SIGKILL) in the middle of a delivery delivers it after its restart.

const ROOT = path.resolve(import.meta.dirname, "../..");
const actor = { userId: null, ip: null, via: "cli" as const };

async function createLeadOver(url: string, key: { keyId: string; secret: string }, name: string): Promise<string> {
  const res = await fetch(`${url}${CREATE_LEAD}`, {
    method: "POST",
    headers: { ...authHeaders(key), "Content-Type": "application/json" },
    body: JSON.stringify({ name, email: "ada@example.com", utm_campaign: "launch", favourite: "tea" }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { lead_id: string }).lead_id;
}

const deliveriesOf = (receiver: WebhookReceiver, leadId: string) =>
  receiver.deliveries.filter((d) => (d.payload as { data?: { lead?: { id?: string } } } | null)?.data?.lead?.id === leadId);

/** Adds an endpoint on the database of a server of the test's own (its DATA_DIR holds the encryption key). */
function addEndpointOn(server: ServerProcess, slug: string, url: string): { id: string; secret: string } {
  const out = execFileSync(process.execPath, ["--import", "tsx", "e2e/support/add-webhook-endpoint.ts", slug, url], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: `file:${server.databaseFile}` },
    encoding: "utf8",
  });
  return JSON.parse(out.trim().split("\n").pop()!) as { id: string; secret: string };
}

type JobRow = { state: string; attempts: number };
const jobOf = (server: ServerProcess, endpointId: string) =>
  readDatabase(
    server.databaseFile,
    (sqlite) => sqlite.prepare(`SELECT "state", "attempts" FROM "Job" WHERE "endpointId" = ?`).get(endpointId) as JobRow | undefined,
  );

test("a lead created over HTTP is delivered once, signed, with the lead's fields", async () => {
  const receiver = await startWebhookReceiver();
  try {
    const { team, key } = await newTeamWithKey();
    const endpoint = await createEndpoint({ teamId: team.id, url: receiver.url, description: null, events: ["lead.created"], actor });
    receiver.secret = await revealSigningSecret({ id: endpoint.id, teamId: team.id, actor });
    const leadId = await createLeadOver(BASE_URL, key, "Ada Lovelace");

    await expect.poll(async () => (await db().job.findFirst({ where: { endpointId: endpoint.id } }))?.state).toBe("delivered");
    const received = deliveriesOf(receiver, leadId);
    expect(received).toHaveLength(1);
    const [delivery] = received;
    expect(delivery!.verified).toBe(true);
    const payload = delivery!.payload as { id: string; type: string; data: Record<string, Record<string, unknown>> };
    expect(payload.type).toBe("lead.created");
    expect(delivery!.headers["webhook-id"]).toBe(payload.id);
    expect(payload.data.team).toEqual({ id: team.id, slug: team.slug });
    expect(payload.data.lead).toMatchObject({
      id: leadId,
      first_name: "Ada",
      last_name: "Lovelace",
      email: "ada@example.com",
      utm: { source: null, medium: null, campaign: "launch", term: null, content: null },
      extra_fields: { favourite: "tea" },
      // Derived from the fields (docs/attribution.md): a campaign with no source or medium is GA4's Direct.
      attribution: { last_touch: { channel_group: "Direct", campaign: "launch", source: null }, first_touch: { channel_group: "Direct" } },
    });
    expect(payload.data.created_by).toEqual({ api_key_id: key.keyId, form_id: null, connection_id: null });
    expect(await db().webhookAttempt.count({ where: { endpointId: endpoint.id } })).toBe(1);
  } finally {
    await receiver.close();
  }
});

test.describe("servers of their own", { tag: "@own-server" }, () => {
  test.describe.configure({ timeout: 180_000 });
  const servers: ServerProcess[] = [];
  test.afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop()));
  });
  const start = async (options: Parameters<typeof startServer>[0] = {}) => {
    const server = await startServer({
      ...options,
      env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", JOB_RETRY_BASE_SECONDS: "0.5", JOB_LEASE_SECONDS: "15", ...options.env },
    });
    servers.push(server);
    return server;
  };

  test("a receiver that is down gets the event after retries, once it is up", async () => {
    const probe = await startWebhookReceiver();
    const port = probe.port;
    await probe.close();
    const server = await start();
    const endpoint = addEndpointOn(server, "demo", `http://127.0.0.1:${port}/hooks/lead`);
    const leadId = await createLeadOver(server.url, demoKey(server), "Down Then Up");

    // Two failed attempts (connection refused) while the receiver is down.
    await expect.poll(() => jobOf(server, endpoint.id)?.attempts ?? 0, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    expect(jobOf(server, endpoint.id)?.state).toBe("pending");
    const receiver = await startWebhookReceiver({ port });
    try {
      receiver.secret = endpoint.secret;
      await expect.poll(() => jobOf(server, endpoint.id)?.state, { timeout: 60_000 }).toBe("delivered");
      const received = deliveriesOf(receiver, leadId);
      expect(received.map((d) => d.verified)).toEqual([true]);
      const attempts = readDatabase(server.databaseFile, (sqlite) =>
        sqlite.prepare(`SELECT "ok", "statusCode", "error" FROM "WebhookAttempt" WHERE "endpointId" = ? ORDER BY "id"`).all(endpoint.id),
      ) as { ok: number; statusCode: number | null; error: string | null }[];
      expect(attempts.length).toBeGreaterThanOrEqual(3);
      expect(attempts.slice(0, -1).every((a) => !a.ok && a.statusCode === null && /ECONNREFUSED/.test(a.error ?? ""))).toBe(true);
      expect(attempts.at(-1)).toMatchObject({ ok: 1, statusCode: 200 });
    } finally {
      await receiver.close();
    }
  });

  test("a server killed (SIGKILL) during a delivery delivers it after its restart", async () => {
    const receiver = await startWebhookReceiver();
    try {
      const first = await start();
      const endpoint = addEndpointOn(first, "demo", receiver.url);
      receiver.secret = endpoint.secret;
      const key = demoKey(first);
      // The receiver holds the first delivery unanswered; the server is killed while it waits.
      let arrived!: () => void;
      const inFlight = new Promise<void>((resolve) => (arrived = resolve));
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      receiver.onRequest = () => {
        receiver.onRequest = null;
        arrived();
        return held;
      };
      const leadId = await createLeadOver(first.url, key, "Killed Mid Delivery");
      await inFlight;
      first.kill();
      await first.exited;
      release();
      expect(jobOf(first, endpoint.id)).toMatchObject({ state: "running", attempts: 1 });

      const second = await start({ dataDir: first.dataDir });
      await expect.poll(() => jobOf(second, endpoint.id)?.state, { timeout: 60_000 }).toBe("delivered");
      expect(jobOf(second, endpoint.id)?.attempts).toBe(2);
      const received = deliveriesOf(receiver, leadId);
      // At least once: the killed attempt arrived too, with the same webhook-id for the receiver to skip.
      expect(received.map((d) => [d.id, d.verified])).toEqual([
        [received[0]!.id, true],
        [received[0]!.id, true],
      ]);
    } finally {
      await receiver.close();
    }
  });
});
