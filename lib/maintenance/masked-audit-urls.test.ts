import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { CLI_ACTOR, recordAuditEvent } from "../audit/audit-log";
import { db } from "../db/client";
import { createTeam } from "../teams/team-store";
import { maskStoredWebhookUrls } from "./masked-audit-urls";

await useTestDatabase();

test("older webhook audit entries lose the secret in their URL; others are left as they are; a second run changes nothing", async () => {
  const team = await createTeam({ slug: "masked-audit", name: "Masked audit" });
  const secretUrl = "https://hooks.slack.com/services/T000/B000/very-secret-token";
  const entry = (action: "webhook.created" | "webhook.updated" | "api_key.generated", details: Record<string, string>) =>
    recordAuditEvent({ teamId: team.id, action, actor: CLI_ACTOR, targetId: "x", details });
  // As written before URLs were masked.
  await entry("webhook.created", { url: secretUrl });
  await entry("webhook.updated", { url: "https://example.com/hook?token=abc123", changed: "url" });
  await entry("webhook.updated", { url: "https://example.com/h", changed: "events" });
  await entry("api_key.generated", { description: "https://example.com/not-a-webhook?token=kept" });

  assert.equal(await maskStoredWebhookUrls(), 2);
  const rows = await db().auditEvent.findMany({ where: { teamId: team.id }, select: { details: true } });
  const sorted = (values: unknown[]) => values.map((value) => JSON.stringify(value)).sort();
  assert.deepEqual(
    sorted(rows.map((row) => row.details)),
    sorted([
      { url: "https://hooks.slack.com/serv…" },
      { url: "https://example.com/hook…", changed: "url" },
      { url: "https://example.com/h", changed: "events" },
      { description: "https://example.com/not-a-webhook?token=kept" },
    ]),
  );
  assert.ok(!JSON.stringify(rows).includes("very-secret-token") && !JSON.stringify(rows).includes("abc123"));
  assert.equal(await maskStoredWebhookUrls(), 0);
});
