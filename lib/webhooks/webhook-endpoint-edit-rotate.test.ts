import assert from "node:assert/strict";
import { beforeEach, describe, mock, test } from "node:test";
import type { Dispatcher } from "../jobs/dispatcher";

// Changing a webhook endpoint (lib/webhooks/webhook-admin.ts, webhook-endpoint-changes.ts):
// editing its URL, description and events, checked and audited; rotating its signing secret
// with and without a grace period, checked on real deliveries' signatures.

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { db } = await import("../db/client");
const { createTeam } = await import("../teams/team-store");
const { revealSigningSecret, rotateSigningSecret } = await import("./webhook-endpoint-changes");
const { findEndpoint } = await import("./webhook-endpoint-store");
const { Webhook } = await import("standardwebhooks");
const { listAuditEvents } = await import("../audit/audit-log");
const { editEndpoint } = await import("./webhook-admin");
const { actor, dispatcher, lead, nextTeam, receiver, teamWithEndpoint } = await import("./webhook-delivery.fixtures");

// Deliveries and refusals write JSON log lines on stderr; keep the output clean.
mock.method(process.stderr, "write", () => true);

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
    const stranger = await createTeam({ slug: `hooks-${nextTeam()}`, name: "Stranger" });
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
    const stranger = await createTeam({ slug: `hooks-${nextTeam()}`, name: "Stranger" });
    assert.equal(await rotateSigningSecret({ id: endpoint.id, teamId: stranger.id, now: t, previousUntil: t, actor }), null);
    assert.equal(await revealSigningSecret({ id: endpoint.id, teamId: team.id, actor }), rotated!.secret);
  });
});
