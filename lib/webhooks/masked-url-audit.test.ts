import assert from "node:assert/strict";
import { describe, test } from "node:test";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { db } = await import("../db/client");
const { listAuditEvents } = await import("../audit/audit-log");
const { createTeam } = await import("../teams/team-store");
const { addEndpoint, editEndpoint } = await import("./webhook-admin");
const { deleteEndpoint } = await import("./webhook-endpoint-changes");
const { findEndpoint } = await import("./webhook-endpoint-store");

// Security review 2 (issue 27), finding 7: a secret in a webhook URL (a token in the
// query, a Slack-style secret path) is not written into the audit log, where it would
// outlive the endpoint. The endpoint itself keeps the full URL (deliveries need it).

const actor = { userId: null, ip: null, via: "cli" as const };

describe("webhook URLs in the audit log", () => {
  test("adding and editing an endpoint audit its URL masked; the endpoint keeps the full URL", async () => {
    const team = await createTeam({ slug: "masked-urls", name: "Masked URLs" });
    const first = "https://hooks.slack.com/services/T0AAAA/B0BBBB/SlackPathSecret123?token=QueryToken456";
    const second = "https://hooks.example.com/in/EditedPathSecret789?key=EditedQueryToken000";
    const added = await addEndpoint({ teamId: team.id, url: first, description: null, events: ["lead.created"], actor });
    assert.ok(added.ok);
    assert.equal((await findEndpoint({ id: added.id, teamId: team.id }))!.url, first);
    assert.deepEqual(await editEndpoint({ id: added.id, teamId: team.id, url: second, events: ["lead.created"], actor }), { ok: true });
    assert.equal((await findEndpoint({ id: added.id, teamId: team.id }))!.url, second);
    assert.ok(await deleteEndpoint({ id: added.id, teamId: team.id, actor }));

    const events = await listAuditEvents(team.id);
    const details = Object.fromEntries(events.map((event) => [event.action, event.details]));
    assert.deepEqual(details["webhook.created"], { url: "https://hooks.slack.com/serv…" });
    assert.deepEqual(details["webhook.updated"], { url: "https://hooks.example.com/in/E…", changed: "url" });
    // Not in any column of any row the team's log holds, long after the endpoint is gone.
    const rows = JSON.stringify(await db().auditEvent.findMany({ where: { teamId: team.id } }));
    for (const secret of ["SlackPathSecret123", "QueryToken456", "EditedPathSecret789", "EditedQueryToken000", "B0BBBB"]) {
      assert.ok(!rows.includes(secret), `the audit log holds ${secret}`);
    }
  });
});
