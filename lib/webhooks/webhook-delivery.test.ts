import assert from "node:assert/strict";
import { after, beforeEach, describe, mock, test } from "node:test";

const { useTestDatabase } = await import("../../test/support/test-database");
const database = await useTestDatabase();
const { db } = await import("../db/client");
const { Dispatcher } = await import("../jobs/dispatcher");
const { MAX_ATTEMPTS, retryDelayMs } = await import("../jobs/retry-schedule");
const { createLead } = await import("../leads/create-lead");
const { parseLeadInput } = await import("../leads/parse-lead-input");
const { createTeam } = await import("../teams/team-store");
const { startWebhookReceiver } = await import("../../test/support/webhook-receiver");
const { leadCreatedEventSchema } = await import("./lead-created-event");
const { webhookHandler } = await import("./webhook-delivery");
const { createEndpoint, revealSigningSecret, rotateSigningSecret } = await import("./webhook-endpoint-changes");
const { findEndpoint } = await import("./webhook-endpoint-store");
const { listAttempts } = await import("./delivery-attempt-store");
const { Webhook } = await import("standardwebhooks");
const { listAuditEvents } = await import("../audit/audit-log");
const { editEndpoint } = await import("./webhook-admin");

// Deliveries and refusals write JSON log lines on stderr; keep the output clean.
mock.method(process.stderr, "write", () => true);

const actor = { userId: null, ip: null, via: "cli" as const };
const receiver = await startWebhookReceiver();
after(() => receiver.close());

let teams = 0;
async function teamWithEndpoint(url = receiver.url) {
  const team = await createTeam({ slug: `hooks-${++teams}`, name: `Hooks ${teams}` });
  const endpoint = await createEndpoint({ teamId: team.id, url, description: null, events: ["lead.created"], actor });
  receiver.secret = await revealSigningSecret({ id: endpoint.id, teamId: team.id, actor });
  return { team, endpoint };
}

const lead = (team: { id: string }, name: string) =>
  createLead({
    team: { id: team.id, defaultPhoneCountry: null },
    apiKeyId: "key-1",
    input: parseLeadInput([
      ["name", name],
      ["utm_source", "ads"],
      ["colour", "teal"],
    ]),
  });

/** A dispatcher on a clock the test moves. */
function dispatcher(options: { allowPrivate?: boolean; workerId?: string; clock?: { now: Date } } = {}) {
  const clock = options.clock ?? { now: new Date(Date.now() + 1_000) };
  const instance = new Dispatcher({
    handlers: {
      webhook: webhookHandler({ allowPrivate: options.allowPrivate ?? true }),
      email: { run: async () => ({ ok: false, error: "not in this test", retry: false }) },
    },
    workerId: options.workerId,
    now: () => clock.now,
    random: () => 0.5,
    leaseMs: 60_000,
    retryBaseMs: 30_000,
    retentionMs: 30 * 24 * 60 * 60 * 1000,
  });
  return { dispatcher: instance, clock };
}

const jobsOf = (teamId: string) => db().job.findMany({ where: { teamId }, orderBy: { createdAt: "asc" } });

describe("the outbox row commits with the lead", () => {
  test("a created lead gets one job per subscribed, enabled endpoint", async () => {
    const { team, endpoint } = await teamWithEndpoint();
    const { leadId } = await lead(team, "Ada Lovelace");
    const [job, ...others] = await jobsOf(team.id);
    assert.equal(others.length, 0);
    assert.deepEqual([job!.kind, job!.endpointId, job!.state, job!.eventType], ["webhook", endpoint.id, "pending", "lead.created"]);
    const payload = leadCreatedEventSchema.parse(JSON.parse(job!.payload));
    assert.equal(payload.id, job!.eventId);
    assert.deepEqual(
      [
        payload.data.lead.id,
        payload.data.lead.first_name,
        payload.data.lead.utm.source,
        payload.data.lead.extra_fields,
        payload.data.created_by,
      ],
      [leadId, "Ada", "ads", { colour: "teal" }, { api_key_id: "key-1", form_id: null }],
    );
  });

  test("a lead whose transaction rolls back leaves no job", async () => {
    const { team } = await teamWithEndpoint();
    // A proof-of-work solution spent before: the lead's transaction rolls back at its end.
    const spent = { id: `nonce-${teams}`, expiresAt: new Date(Date.now() + 60_000), replayed: () => new Error("replayed") };
    await db().spentChallenge.create({ data: { id: spent.id, expiresAt: spent.expiresAt } });
    await assert.rejects(
      createLead({
        team: { id: team.id, defaultPhoneCountry: null },
        apiKeyId: null,
        input: parseLeadInput([["name", "Rolled Back"]]),
        spentChallenge: spent,
      }),
      /replayed/,
    );
    assert.deepEqual(await jobsOf(team.id), []);
    assert.equal(await db().lead.count({ where: { teamId: team.id } }), 0);
  });

  test("no endpoint, or a disabled one: no job", async () => {
    const team = await createTeam({ slug: `hooks-${++teams}`, name: "No hooks" });
    await lead(team, "Nobody Listens");
    const { team: other, endpoint } = await teamWithEndpoint();
    await db().webhookEndpoint.update({ where: { id: endpoint.id }, data: { enabled: false } });
    await lead(other, "Disabled Listener");
    assert.deepEqual([...(await jobsOf(team.id)), ...(await jobsOf(other.id))], []);
  });
});

describe("delivery", () => {
  // Dispatchers claim every due job of the database: each test starts with none left over.
  beforeEach(() => db().job.deleteMany({}));

  test("a signed POST that the standardwebhooks verifier accepts, logged with status and excerpt", async () => {
    const { team, endpoint } = await teamWithEndpoint();
    receiver.status = 200;
    await lead(team, "Grace Hopper");
    const [job] = await jobsOf(team.id);
    const before = receiver.deliveries.length;
    const { dispatcher: d } = dispatcher();
    assert.equal(await d.runOnce(), 1);
    const received = receiver.deliveries.slice(before);
    assert.equal(received.length, 1);
    assert.equal(received[0]!.verified, true);
    assert.equal(received[0]!.id, job!.eventId);
    assert.equal(received[0]!.body, job!.payload);
    assert.equal((await db().job.findUniqueOrThrow({ where: { id: job!.id } })).state, "delivered");
    const [attempt] = await listAttempts({ endpointId: endpoint.id, teamId: team.id });
    assert.deepEqual([attempt!.ok, attempt!.statusCode, attempt!.attempt, attempt!.responseExcerpt], [true, 200, 1, "ok"]);
    assert.equal(await d.runOnce(), 0, "a delivered job is not sent again");
  });

  test("a failing receiver is retried on the backoff schedule until it answers 2xx", async () => {
    const { team, endpoint } = await teamWithEndpoint();
    await lead(team, "Retry Me");
    const [job] = await jobsOf(team.id);
    const { dispatcher: d, clock } = dispatcher();
    receiver.status = 503;
    assert.equal(await d.runOnce(), 1);
    let row = await db().job.findUniqueOrThrow({ where: { id: job!.id } });
    assert.equal(row.state, "pending");
    assert.equal(row.runAt.getTime() - clock.now.getTime(), retryDelayMs(1, 30_000, 0.5));
    assert.equal(await d.runOnce(), 0, "not due before its time");
    clock.now = row.runAt;
    assert.equal(await d.runOnce(), 1);
    row = await db().job.findUniqueOrThrow({ where: { id: job!.id } });
    assert.equal(row.runAt.getTime() - clock.now.getTime(), retryDelayMs(2, 30_000, 0.5));
    receiver.status = 200;
    clock.now = row.runAt;
    assert.equal(await d.runOnce(), 1);
    assert.equal((await db().job.findUniqueOrThrow({ where: { id: job!.id } })).state, "delivered");
    const attempts = await listAttempts({ endpointId: endpoint.id, teamId: team.id });
    assert.deepEqual(attempts.map((a) => [a.attempt, a.statusCode, a.ok]).reverse(), [
      [1, 503, false],
      [2, 503, false],
      [3, 200, true],
    ]);
    assert.equal((await findEndpoint({ id: endpoint.id, teamId: team.id }))!.failingSince, null, "a success clears failing");
  });

  test("after the last attempt fails the delivery has failed and the endpoint is disabled as failing", async () => {
    const { team, endpoint } = await teamWithEndpoint();
    await lead(team, "Never Delivered");
    const [job] = await jobsOf(team.id);
    const { dispatcher: d, clock } = dispatcher();
    receiver.status = 500;
    const start = clock.now.getTime();
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      assert.equal(await d.runOnce(), 1, `attempt ${attempt}`);
      const row = await db().job.findUniqueOrThrow({ where: { id: job!.id } });
      if (attempt < MAX_ATTEMPTS) clock.now = row.runAt;
    }
    const hours = (clock.now.getTime() - start) / 3_600_000;
    assert.ok(hours > 20 && hours < 34, `the schedule spans about a day (${hours.toFixed(1)} h)`);
    assert.equal((await db().job.findUniqueOrThrow({ where: { id: job!.id } })).state, "failed");
    const view = await findEndpoint({ id: endpoint.id, teamId: team.id });
    assert.deepEqual([view!.enabled, view!.disabledReason], [false, "failing"]);
    receiver.status = 200;
  });

  test("a failed test event (one attempt) does not disable the endpoint", async () => {
    const { team, endpoint } = await teamWithEndpoint();
    const { sendTestEvent } = await import("./webhook-admin");
    assert.equal(await sendTestEvent({ endpointId: endpoint.id, team, actor }), true);
    receiver.status = 500;
    const { dispatcher: d } = dispatcher();
    assert.equal(await d.runOnce(), 1);
    receiver.status = 200;
    const [job] = await jobsOf(team.id);
    assert.deepEqual([job!.state, job!.eventType], ["failed", "webhook.test"]);
    const view = await findEndpoint({ id: endpoint.id, teamId: team.id });
    assert.deepEqual([view!.enabled, view!.failingSince !== null], [true, true]);
  });

  test("finished deliveries and their log rows are pruned after the retention period; pending ones stay", async () => {
    const { team, endpoint } = await teamWithEndpoint();
    await lead(team, "Old Delivery");
    const { dispatcher: d, clock } = dispatcher();
    assert.equal(await d.runOnce(), 1);
    await lead(team, "Still Pending");
    clock.now = new Date(clock.now.getTime() + 30 * 24 * 60 * 60 * 1000 - 60_000);
    assert.equal(await d.prune(), 0, "not yet 30 days old");
    clock.now = new Date(clock.now.getTime() + 2 * 60_000);
    assert.equal(await d.prune(), 1);
    assert.deepEqual(
      (await jobsOf(team.id)).map((job) => job.state),
      ["pending"],
    );
    assert.deepEqual(await listAttempts({ endpointId: endpoint.id, teamId: team.id }), []);
  });

  test("without WEBHOOK_ALLOW_PRIVATE_TARGETS a loopback URL is refused, and nothing is sent", async () => {
    const { team, endpoint } = await teamWithEndpoint();
    await lead(team, "Private Target");
    const before = receiver.deliveries.length;
    const { dispatcher: d } = dispatcher({ allowPrivate: false });
    assert.equal(await d.runOnce(), 1);
    assert.equal(receiver.deliveries.length, before);
    const [attempt] = await listAttempts({ endpointId: endpoint.id, teamId: team.id });
    assert.equal(attempt!.statusCode, null);
    assert.match(attempt!.error!, /^Refused: 127\.0\.0\.1 resolves to 127\.0\.0\.1, a private or reserved address/);
  });

  test("a claim whose worker died is taken again after its lease; the dead worker's late answer is ignored", async () => {
    const { team } = await teamWithEndpoint();
    await lead(team, "Lease Expired");
    const [job] = await jobsOf(team.id);
    const clock = { now: new Date(Date.now() + 1_000) };
    const { claimJobs, finishAttempt } = await import("../jobs/job-store");
    const [claimed] = await claimJobs({ workerId: "dead", now: clock.now, leaseMs: 60_000, limit: 10 });
    assert.equal(claimed!.id, job!.id);
    const { dispatcher: d } = dispatcher({ workerId: "alive", clock });
    assert.equal(await d.runOnce(), 0, "leased to the dead worker");
    clock.now = new Date(clock.now.getTime() + 60_001);
    assert.equal(await d.runOnce(), 1);
    const row = await db().job.findUniqueOrThrow({ where: { id: job!.id } });
    assert.deepEqual([row.state, row.attempts], ["delivered", 2]);
    assert.equal(await finishAttempt(claimed!, "dead", { state: "failed", error: "late" }, clock.now), false);
    assert.equal((await db().job.findUniqueOrThrow({ where: { id: job!.id } })).state, "delivered");
  });

  test("an attempt's log row commits with the delivery's outcome: when the row cannot be written, the delivery stays claimed and goes out again after its lease", async () => {
    const { team, endpoint } = await teamWithEndpoint();
    receiver.status = 200;
    await lead(team, "Log Row Lost");
    const [job] = await jobsOf(team.id);
    const clock = { now: new Date(Date.now() + 1_000) };
    const real = webhookHandler({ allowPrivate: true });
    const failing = new Dispatcher({
      handlers: {
        webhook: {
          run: async (claimed, now, lease, memo) => {
            const result = await real.run(claimed, now, lease, memo);
            return {
              ...result,
              record: async (tx) => {
                await result.record!(tx);
                throw new Error("disk full");
              },
            };
          },
        },
      },
      workerId: "failing",
      now: () => clock.now,
      random: () => 0.5,
      leaseMs: 60_000,
      retryBaseMs: 30_000,
    });
    assert.equal(await failing.runOnce(), 1);
    let row = await db().job.findUniqueOrThrow({ where: { id: job!.id } });
    assert.deepEqual([row.state, row.lockedBy], ["running", "failing"], "neither finished nor logged: still claimed");
    assert.deepEqual(await listAttempts({ endpointId: endpoint.id, teamId: team.id }), []);
    clock.now = new Date(clock.now.getTime() + 60_001);
    const { dispatcher: d } = dispatcher({ clock });
    assert.equal(await d.runOnce(), 1);
    row = await db().job.findUniqueOrThrow({ where: { id: job!.id } });
    assert.deepEqual([row.state, row.attempts], ["delivered", 2]);
    const attempts = await listAttempts({ endpointId: endpoint.id, teamId: team.id });
    assert.deepEqual(
      attempts.map((a) => [a.attempt, a.ok]),
      [[2, true]],
    );
  });

  test("two dispatchers on one database never send the same delivery twice", async () => {
    const { team } = await teamWithEndpoint();
    receiver.status = 200;
    const count = 40;
    for (let i = 0; i < count; i++) await lead(team, `Concurrent ${i}`);
    const events = new Set((await jobsOf(team.id)).map((job) => job.eventId));
    const before = receiver.deliveries.length;
    const clock = { now: new Date(Date.now() + 1_000) };
    const workers = ["one", "two"].map((workerId) => dispatcher({ workerId, clock }).dispatcher);
    // Both claim in small batches at the same time until nothing is left.
    await Promise.all(
      workers.map(async (worker) => {
        while ((await worker.runOnce()) > 0);
      }),
    );
    const received = receiver.deliveries.slice(before).filter((delivery) => events.has(delivery.id));
    assert.equal(received.length, count);
    assert.equal(new Set(received.map((delivery) => delivery.id)).size, count);
    const claimedBy = await db().webhookAttempt.count({ where: { endpoint: { teamId: team.id } } });
    assert.equal(claimedBy, count);
  });

  // SQLite has one process and no row locks: this behaviour exists on PostgreSQL only.
  if (database.provider === "postgres")
    test("PostgreSQL: a claim skips the rows another instance holds locked instead of waiting for them", async () => {
      const { team } = await teamWithEndpoint();
      for (let i = 0; i < 3; i++) await lead(team, `Locked ${i}`);
      const [held, ...free] = await jobsOf(team.id);
      const { default: pg } = await import("pg");
      const other = new pg.Client({ connectionString: database.url });
      await other.connect();
      try {
        await other.query("BEGIN");
        await other.query(`SELECT "id" FROM "Job" WHERE "id" = $1 FOR UPDATE`, [held!.id]);
        const { claimJobs } = await import("../jobs/job-store");
        const claim = claimJobs({ workerId: "skipper", now: new Date(Date.now() + 1_000), leaseMs: 60_000, limit: 10 });
        // A claim that waited for the lock would still be waiting when the guard fires.
        const guard = new Promise<"blocked">((resolve) => setTimeout(() => resolve("blocked"), 5_000).unref());
        const claimed = await Promise.race([claim, guard]);
        assert.notEqual(claimed, "blocked", "the claim waited for the locked row");
        assert.deepEqual(new Set((claimed as { id: string }[]).map((job) => job.id)), new Set(free.map((job) => job.id)));
      } finally {
        await other.query("ROLLBACK");
        await other.end();
      }
    });
});

describe("editing an endpoint and rotating its secret", () => {
  beforeEach(() => db().job.deleteMany({}));
  const HOUR = 3_600_000;

  /** The `v1,…` entries of a delivery's webhook-signature header. */
  const signatures = (delivery: { headers: Record<string, unknown> }) => String(delivery.headers["webhook-signature"]).split(" ");
  /** Whether one of the delivery's signatures is `secret`'s (checked at the delivery's own timestamp). */
  const signedBy = (delivery: { id: string; body: string; headers: Record<string, unknown> }, secret: string) =>
    signatures(delivery).includes(
      new Webhook(secret).sign(delivery.id, new Date(Number(delivery.headers["webhook-timestamp"]) * 1000), delivery.body),
    );

  async function deliverOne(team: { id: string }, name: string, d: InstanceType<typeof Dispatcher>) {
    const before = receiver.deliveries.length;
    await lead(team, name);
    assert.equal(await d.runOnce(), 1);
    assert.equal(receiver.deliveries.length, before + 1);
    return receiver.deliveries.at(-1)!;
  }

  test("a manager changes the URL, description and events, checked like a new endpoint's; audited with what changed", async () => {
    const { team, endpoint } = await teamWithEndpoint("https://hooks.example.com/old");
    const edit = (fields: { url: string; description?: string; events: string[] }, teamId = team.id) =>
      editEndpoint({ id: endpoint.id, teamId, actor, ...fields });
    assert.deepEqual(await edit({ url: "ftp://hooks.example.com/", events: ["lead.created"] }), {
      ok: false,
      error: "The URL must start with https://.",
    });
    assert.deepEqual(await edit({ url: "https://hooks.example.com/new", events: ["lead.deleted"] }), {
      ok: false,
      error: "Choose at least one event.",
    });
    const stranger = await createTeam({ slug: `hooks-${++teams}`, name: "Stranger" });
    assert.deepEqual(await edit({ url: "https://evil.example/", events: ["lead.created"] }, stranger.id), {
      ok: false,
      error: "That endpoint does not exist (it may have been deleted).",
    });
    assert.equal(
      (await findEndpoint({ id: endpoint.id, teamId: team.id }))!.url,
      "https://hooks.example.com/old",
      "a refused edit changes nothing",
    );

    assert.deepEqual(
      await edit({ url: "https://hooks.example.com/new#part", description: "  CRM v2 ", events: ["lead.created", "lead.created"] }),
      { ok: true },
    );
    const view = await findEndpoint({ id: endpoint.id, teamId: team.id });
    assert.deepEqual([view!.url, view!.description, view!.events], ["https://hooks.example.com/new", "CRM v2", ["lead.created"]]);
    const [event] = await listAuditEvents(team.id, { limit: 1 });
    assert.deepEqual(
      [event!.action, event!.targetId, event!.details],
      ["webhook.updated", endpoint.id, { url: "https://hooks.example.com/new", changed: "url, description" }],
    );
  });

  test("after a rotation with a grace period both secrets sign each delivery until it ends, then only the new one", async () => {
    const { team, endpoint } = await teamWithEndpoint();
    const old = receiver.secret!;
    const t = new Date();
    const rotated = await rotateSigningSecret({
      id: endpoint.id,
      teamId: team.id,
      now: t,
      previousUntil: new Date(t.getTime() + HOUR),
      actor,
    });
    assert.ok(rotated && rotated.secret.startsWith("whsec_") && rotated.secret !== old);
    assert.equal(
      await revealSigningSecret({ id: endpoint.id, teamId: team.id, actor }),
      rotated.secret,
      "the new secret is the endpoint's secret",
    );
    assert.deepEqual((await findEndpoint({ id: endpoint.id, teamId: team.id }))!.previousSecretExpiresAt, new Date(t.getTime() + HOUR));

    // A receiver that still has the old secret keeps verifying (the package's own verifier).
    const { dispatcher: d, clock } = dispatcher({ clock: { now: new Date(t.getTime() + 1_000) } });
    const during = await deliverOne(team, "During Grace", d);
    assert.equal(during.verified, true);
    assert.equal(signatures(during).length, 2);
    assert.ok(signedBy(during, rotated.secret) && signedBy(during, old));

    clock.now = new Date(t.getTime() + HOUR);
    const after = await deliverOne(team, "After Grace", d);
    assert.equal(signatures(after).length, 1);
    assert.ok(signedBy(after, rotated.secret));
    assert.ok(!signedBy(after, old), "the old secret no longer signs");

    const rotation = (await listAuditEvents(team.id)).find((event) => event.action === "webhook.secret_rotated");
    assert.deepEqual(
      [rotation?.targetId, rotation?.details],
      [endpoint.id, { old_signs_until: new Date(t.getTime() + HOUR).toISOString() }],
    );
  });

  test("a rotation without a grace period: only the new secret signs at once; another team cannot rotate it", async () => {
    const { team, endpoint } = await teamWithEndpoint();
    const old = receiver.secret!;
    const t = new Date();
    const rotated = await rotateSigningSecret({ id: endpoint.id, teamId: team.id, now: t, previousUntil: t, actor });
    assert.deepEqual(
      rotated && [rotated.previousUntil, (await findEndpoint({ id: endpoint.id, teamId: team.id }))!.previousSecretExpiresAt],
      [null, null],
    );
    const { dispatcher: d } = dispatcher({ clock: { now: new Date(t.getTime() + 1_000) } });
    const delivery = await deliverOne(team, "No Grace", d);
    assert.deepEqual(
      [signatures(delivery).length, signedBy(delivery, rotated!.secret), signedBy(delivery, old), delivery.verified],
      [1, true, false, false],
    );

    // Another team cannot rotate it.
    const stranger = await createTeam({ slug: `hooks-${++teams}`, name: "Stranger" });
    assert.equal(await rotateSigningSecret({ id: endpoint.id, teamId: stranger.id, now: t, previousUntil: t, actor }), null);
    assert.equal(await revealSigningSecret({ id: endpoint.id, teamId: team.id, actor }), rotated!.secret);
  });
});
