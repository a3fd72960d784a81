import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { CLI_ACTOR } from "../audit/audit-log";
import { db } from "../db/client";
import { createTeam } from "../teams/team-store";
import { createConnection } from "./connection-changes";
import { listDeliveries, newDeliveryId } from "./connection-delivery-store";
import { deliveryCursorQuery, parseDeliveryCursor } from "./delivery-cursor";

// The connection page's cursor as its query string carries it: read strictly (anything else
// is the newest page, never an error), and a walk through the log by it on a real database.

await useTestDatabase();

const ID = `dlv_${"0123456789abcdef".repeat(2)}`;
const AT = "2026-11-30T09:15:02.123Z";

test("a cursor is an ISO time to the millisecond and a delivery id; anything else is the newest page", () => {
  assert.deepEqual(parseDeliveryCursor({ at: AT, older: ID }), { at: new Date(AT), id: ID });
  const refused: { at?: string | string[]; older?: string | string[] }[] = [
    {},
    { at: AT },
    { older: ID },
    { at: [AT, AT], older: ID },
    { at: AT, older: [ID] },
    { at: "2026-11-30T09:15:02Z", older: ID },
    { at: "2026-11-30 09:15:02.123Z", older: ID },
    { at: "2026-11-30T09:15:02.123+01:00", older: ID },
    { at: "1764494102123", older: ID },
    { at: "2026-02-30T09:15:02.123Z", older: ID },
    { at: "2026-11-30T24:00:00.000Z", older: ID },
    { at: ` ${AT}`, older: ID },
    { at: AT, older: ID.toUpperCase() },
    { at: AT, older: `${ID}0` },
    { at: AT, older: ID.slice(0, -1) },
    { at: AT, older: `dlv_${"g".repeat(32)}` },
    { at: AT, older: `${ID}\n` },
    { at: AT, older: "' OR 1=1 --" },
  ];
  for (const query of refused) assert.equal(parseDeliveryCursor(query), null, JSON.stringify(query));
});

test("the query string of a page reads back as its cursor", () => {
  const query = new URLSearchParams(deliveryCursorQuery({ at: new Date(AT), id: ID }));
  assert.deepEqual(parseDeliveryCursor({ at: query.get("at")!, older: query.get("older")! }), { at: new Date(AT), id: ID });
});

test("walking the log page by page through the query string gives every row once, newest first, ties by id", async () => {
  const team = await createTeam({ slug: "delivery-cursor", name: "Delivery cursor" });
  const { id: connectionId } = await createConnection({ teamId: team.id, builder: "generic", createdById: null, actor: CLI_ACTOR });
  const start = Date.parse("2026-11-30T08:00:00.000Z");
  // Seven rows, three of them attempted in the same millisecond.
  const times = [0, 1, 1, 1, 2, 3, 4].map((step) => new Date(start + step * 1000));
  const rows = times.map((at, index) => ({
    id: newDeliveryId(),
    connectionId,
    teamId: team.id,
    submissionId: `s${index}`,
    outcome: "refused",
    status: 422,
    createdAt: at,
    lastAttemptAt: at,
  }));
  await db().connectionDelivery.createMany({ data: rows });
  const expected = [...rows]
    .sort((a, b) => b.lastAttemptAt.getTime() - a.lastAttemptAt.getTime() || (a.id < b.id ? 1 : -1))
    .map((row) => row.id);

  const seen: string[] = [];
  let query = "";
  for (let pages = 0; pages < 10; pages++) {
    const params = new URLSearchParams(query);
    const after = parseDeliveryCursor({ at: params.get("at") ?? undefined, older: params.get("older") ?? undefined });
    assert.equal(after === null, pages === 0);
    const page = await listDeliveries({ teamId: team.id, connectionId, take: 3, after });
    seen.push(...page.rows.map((row) => row.id));
    if (!page.next) break;
    query = deliveryCursorQuery(page.next);
  }
  assert.deepEqual(seen, expected);
});
