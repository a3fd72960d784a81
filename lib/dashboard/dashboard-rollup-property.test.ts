import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { useTestDatabase } from "../../test/support/test-database";
import { CHANNEL_GROUPS } from "../attribution/channel-groups";
import { db } from "../db/client";
import { deleteLeadsById } from "../leads/delete-leads";
import { actorOf, lead, makeTeam } from "../leads/lead-ownership.fixtures";
import { assignLeads, setLeadStatus } from "../leads/lead-ownership";
import { LEAD_STATUSES } from "../leads/lead-status";
import { DAY_MS, dayStart } from "./overview-sql";
import { channelGroupCounts, leadsOverTime, owners, statusFunnel, topCampaigns } from "./overview-store";

// A property of the dashboard's rollup, on both databases: for generated leads over the last ten
// days (some settled, read from the rollup; yesterday and today live) and a generated sequence of
// writes through the writers' use cases (status, owner, deletion, a move to another day), every
// figure read through the rollup equals the same figure computed directly from the leads. The
// direct figures are the same functions with the app's clock (lib/time/clock.ts) set to 2000,
// before every day of the range: then no day is settled and all are counted live.

await useTestDatabase();

const clockFile = path.join(mkdtempSync(path.join(tmpdir(), "rollup-clock-")), "now");
writeFileSync(clockFile, "");
process.env.LEAD_INTAKE_TEST_CLOCK_FILE = clockFile;

const today = dayStart(new Date());
const RANGE = { from: new Date(today.getTime() - 9 * DAY_MS), to: new Date(today.getTime() + DAY_MS) };

async function figures(teamId: string) {
  return {
    overTimeDay: await leadsOverTime(teamId, RANGE, "day", "channelGroup"),
    overTimeWeek: await leadsOverTime(teamId, RANGE, "week", "source"),
    channels: await channelGroupCounts(teamId, RANGE),
    campaigns: await topCampaigns(teamId, RANGE, 10),
    funnel: await statusFunnel(teamId, RANGE),
    owners: await owners(teamId, RANGE),
  };
}

/** The figures read through the rollup, then computed directly (every day live). */
async function both(teamId: string) {
  writeFileSync(clockFile, "");
  const rolledUp = await figures(teamId);
  writeFileSync(clockFile, "2000-01-01T00:00:00Z");
  const direct = await figures(teamId);
  writeFileSync(clockFile, "");
  return { rolledUp, direct };
}

const leadArb = fc.record({
  daysAgo: fc.integer({ min: 0, max: 9 }),
  minute: fc.integer({ min: 0, max: 1439 }),
  group: fc.constantFrom(...CHANNEL_GROUPS.slice(0, 3)),
  campaign: fc.option(fc.constantFrom("spring", "autumn", "launch"), { nil: null }),
  contactMinutes: fc.option(fc.integer({ min: 0, max: 2000 }), { nil: null }),
});

const writeArb = fc.oneof(
  fc.record({ kind: fc.constant("status" as const), i: fc.nat(), status: fc.constantFrom(...LEAD_STATUSES) }),
  fc.record({ kind: fc.constant("owner" as const), i: fc.nat(), who: fc.constantFrom("owner", "member", null) }),
  fc.record({ kind: fc.constant("delete" as const), i: fc.nat() }),
  fc.record({ kind: fc.constant("move" as const), i: fc.nat(), daysAgo: fc.integer({ min: 0, max: 9 }) }),
);

test("the dashboard's figures through the rollup equal those computed from the leads, after any writes", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(leadArb, { minLength: 1, maxLength: 12 }), fc.array(writeArb, { maxLength: 8 }), async (plans, writes) => {
      const people = await makeTeam();
      const teamId = people.team.id;
      const actor = actorOf(people.owner);
      const ids: string[] = [];
      for (const plan of plans) {
        const id = await lead(teamId);
        const createdAt = new Date(today.getTime() - plan.daysAgo * DAY_MS + plan.minute * 60_000);
        await db().lead.update({
          where: { id },
          data: {
            createdAt,
            channelGroup: plan.group,
            utmCampaign: plan.campaign,
            ...(plan.contactMinutes === null
              ? {}
              : { status: "contacted", firstContactedAt: new Date(createdAt.getTime() + plan.contactMinutes * 60_000) }),
          },
        });
        ids.push(id);
      }
      const first = await both(teamId);
      assert.deepEqual(first.rolledUp, first.direct, "before the writes");
      for (const write of writes) {
        const id = ids[write.i % ids.length]!;
        if (write.kind === "status") await setLeadStatus({ teamId, leadIds: [id], status: write.status, actor });
        if (write.kind === "owner") {
          const ownerId = write.who === null ? null : people[write.who].id;
          await assignLeads({ teamId, leadIds: [id], ownerId, actor });
        }
        if (write.kind === "delete") await deleteLeadsById({ teamId, ids: [id], actor });
        if (write.kind === "move") {
          await db().lead.updateMany({
            where: { id, teamId },
            data: { createdAt: new Date(today.getTime() - write.daysAgo * DAY_MS + 3_600_000) },
          });
        }
      }
      const after = await both(teamId);
      assert.deepEqual(after.rolledUp, after.direct, "after the writes");
    }),
    { numRuns: 15 },
  );
});
