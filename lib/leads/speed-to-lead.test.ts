import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { addMember, createTeam } from "../teams/team-store";
import { setLeadStatus } from "./lead-ownership";
import { actorOf, lead, makeUser } from "./lead-ownership.fixtures";
import {
  durationWords,
  FRESH_FOR_MS,
  nearestRank,
  readSpeedToLead,
  speedToLead,
  SPEED_WINDOWS,
  type ContactFigures,
  type SpeedToLead,
} from "./speed-to-lead";

// Speed to lead (lib/leads/speed-to-lead.ts), on both databases: nearest-rank medians and
// 90th percentiles over the 7- and 30-day windows, their edges, per owner and unassigned, the
// New count, the read's bound, the cache; and a property against a sort-based model.

await useTestDatabase();

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const NOW = new Date("2026-11-20T12:00:00.000Z");
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);

const ada = await makeUser("Ada Owner");
const bob = await makeUser("Bob Owner");

type Plan = { createdAt: number; delay: number | null; ownerId: string | null };

/** Stores `plan` on the lead: created `createdAt` ms from NOW, contacted `delay` ms after (null: New). */
function place(id: string, plan: Plan) {
  const createdAt = at(plan.createdAt);
  return db().lead.update({
    where: { id },
    data: {
      createdAt,
      ownerId: plan.ownerId,
      status: plan.delay === null ? "new" : "contacted",
      firstContactedAt: plan.delay === null ? null : new Date(createdAt.getTime() + plan.delay),
    },
  });
}

async function teamWith(slug: string, plans: readonly Plan[]) {
  const team = await createTeam({ slug, name: slug });
  const ids: string[] = [];
  for (const plan of plans) {
    const id = await lead(team.id);
    await place(id, plan);
    ids.push(id);
  }
  return { team, ids };
}

const f = (contacted: number, median: number | null, p90: number | null): ContactFigures => ({
  contacted,
  medianMs: median === null ? null : median * MINUTE,
  p90Ms: p90 === null ? null : p90 * MINUTE,
});
const byOwner = (figures: SpeedToLead) => Object.fromEntries(figures.owners.map((o) => [o.ownerId ?? "unassigned", o.windows]));

// [name, created (from NOW), minutes to first contact (null: New), owner]. Sorted times, in minutes:
// 7 days  (11): 0 1 2 3 4 10 20 30 60 90 600 → median the 6th (10), 90th percentile the 10th (90);
// 30 days (13): … 120 … 1440               → median the 7th (20), 90th percentile the 12th (600).
const FIXED: [string, number, number | null, string | null][] = [
  ["A", -1 * HOUR, 1, ada.id],
  ["B", -2 * HOUR, 2, ada.id],
  ["C", -3 * HOUR, 3, bob.id],
  ["D", -1 * DAY, 4, bob.id],
  ["N, still New", -1 * DAY - HOUR, null, ada.id],
  ["E", -2 * DAY, 10, null],
  ["P, contacted before its creation (a clock step): 0", -2 * DAY - HOUR, -5, bob.id],
  ["F", -3 * DAY, 20, ada.id],
  ["G", -4 * DAY, 30, bob.id],
  ["H", -5 * DAY, 60, null],
  ["I", -6 * DAY, 90, ada.id],
  ["J, exactly 7 days old: in both windows", -7 * DAY, 600, bob.id],
  ["K, 7 days and 1 ms old: 30 days only", -7 * DAY - 1, 120, ada.id],
  ["L, exactly 30 days old: in", -30 * DAY, 1440, null],
  ["M, 30 days and 1 ms old: out", -30 * DAY - 1, 5, ada.id],
  ["O, created after now: out", MINUTE, 1, ada.id],
];
const fixed = await teamWith(
  "speed-fixed",
  FIXED.map(([, createdAt, minutes, ownerId]) => ({ createdAt, delay: minutes === null ? null : minutes * MINUTE, ownerId })),
);
// Another team's contacted and New leads: never counted.
await teamWith("speed-other", [
  { createdAt: -HOUR, delay: HOUR, ownerId: ada.id },
  { createdAt: -HOUR, delay: null, ownerId: ada.id },
]);

test("nearest rank: the value at ⌈p × n / 100⌉ of the sorted times", () => {
  assert.equal(nearestRank([], 50), null);
  assert.deepEqual(
    [50, 90].map((p) => nearestRank([7], p)),
    [7, 7],
  );
  assert.deepEqual(
    [50, 90].map((p) => nearestRank([1, 2, 3, 4], p)),
    [2, 4],
    "the lower middle of four",
  );
  assert.deepEqual(
    [50, 90].map((p) => nearestRank([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], p)),
    [5, 9],
  );
  assert.equal(nearestRank([...Array(30).keys()], 90), 26, "⌈27⌉ with no float error: the 27th");
});

test("a time in words, rounded down", () => {
  const cases: [number, string][] = [
    [0, "under 1 min"],
    [59_999, "under 1 min"],
    [14 * MINUTE + 59_000, "14 min"],
    [59 * MINUTE, "59 min"],
    [2 * HOUR, "2 h"],
    [2 * HOUR + 5 * MINUTE, "2 h 5 min"],
    [DAY, "1 day"],
    [DAY + 4 * HOUR + 30 * MINUTE, "1 day 4 h"],
    [3 * DAY + 59 * MINUTE, "3 days"],
  ];
  for (const [ms, words] of cases) assert.equal(durationWords(ms), words, String(ms));
});

test("the team's median and 90th percentile over 7 and 30 days, the windows' edges, per owner and unassigned, and New now", async () => {
  const figures = await readSpeedToLead(fixed.team.id, NOW);
  assert.deepEqual(figures.windows, {
    "7d": { ...f(11, 10, 90), sampled: false },
    "30d": { ...f(13, 20, 600), sampled: false },
  });
  assert.deepEqual(byOwner(figures), {
    // Ada: A B F I (1 2 20 90), with K (120) in 30 days.
    [ada.id]: { "7d": f(4, 2, 90), "30d": f(5, 20, 120) },
    // Bob: P C D G J (0 3 4 30 600).
    [bob.id]: { "7d": f(5, 4, 600), "30d": f(5, 4, 600) },
    // Unassigned: E H (10 60), with L (1440) in 30 days.
    unassigned: { "7d": f(2, 10, 60), "30d": f(3, 60, 1440) },
  });
  const counts = figures.owners.map((o) => o.windows["30d"].contacted);
  assert.deepEqual(
    counts,
    [...counts].sort((a, b) => b - a),
    "most contacted first",
  );
  assert.deepEqual(figures.newNow, { count: 1, capped: false });
});

test("the read stops at the window's newest leads: beyond the limit the figures are theirs, and say so", async () => {
  // Newest first: A B C | D … ; the limit of 3 reads A B C (1 2 3 min), D is within 7 days.
  assert.deepEqual((await readSpeedToLead(fixed.team.id, NOW, 3)).windows, {
    "7d": { ...f(3, 2, 3), sampled: true },
    "30d": { ...f(3, 2, 3), sampled: true },
  });
  // 14 leads in 30 days (N is New); a limit of 13 leaves out L only, which is not within 7 days.
  assert.deepEqual((await readSpeedToLead(fixed.team.id, NOW, 13)).windows, {
    "7d": { ...f(11, 10, 90), sampled: false },
    "30d": { ...f(12, 10, 120), sampled: true },
  });
  assert.deepEqual((await readSpeedToLead(fixed.team.id, NOW, 14)).windows, (await readSpeedToLead(fixed.team.id, NOW)).windows);
});

test("a team with no contacted lead: no figures, every lead New", async () => {
  const { team } = await teamWith("speed-quiet", [
    { createdAt: -HOUR, delay: null, ownerId: null },
    { createdAt: -40 * DAY, delay: HOUR, ownerId: ada.id },
  ]);
  assert.deepEqual(await readSpeedToLead(team.id, NOW), {
    windows: { "7d": { ...f(0, null, null), sampled: false }, "30d": { ...f(0, null, null), sampled: false } },
    owners: [],
    newNow: { count: 1, capped: false },
  });
});

test("speedToLead is kept until the team's audit log moves or a minute passes; New is counted every time", async () => {
  const team = await createTeam({ slug: "speed-cached", name: "Cached" });
  await addMember({ teamId: team.id, userId: ada.id, role: "member" });
  const [first, second] = [await lead(team.id), await lead(team.id)];
  const now = () => new Date(Date.now() + 1_000);
  const contacted = async (at: Date) => (await speedToLead(team.id, at)).windows["7d"].contacted;
  const start = now();
  assert.equal(await contacted(start), 0);
  // Not audited (as a deleted owner's leads unassigned): the figures stay until they age out.
  await db().lead.update({ where: { id: second }, data: { status: "junk", firstContactedAt: new Date() } });
  assert.equal(await contacted(start), 0);
  const later = await speedToLead(team.id, start);
  assert.deepEqual(later.newNow, { count: 1, capped: false }, "New is read every time");
  assert.equal(await contacted(new Date(start.getTime() + FRESH_FOR_MS)), 1);
  // A contact through the app is audited: the next read has it.
  assert.deepEqual(await setLeadStatus({ teamId: team.id, leadIds: [first], status: "contacted", actor: actorOf(ada) }), {
    ok: true,
    changed: [{ leadId: first, from: "new", to: "contacted" }],
  });
  assert.equal(await contacted(new Date(start.getTime() + FRESH_FOR_MS)), 2);
});

/** The model: every window's leads filtered, times sorted, the percentile by its definition. */
function model(plans: readonly Plan[], limit: number) {
  const inside = plans.filter((p) => p.createdAt >= -30 * DAY && p.createdAt <= 0).sort((a, b) => b.createdAt - a.createdAt);
  const read = inside.length > limit ? inside.filter((p) => p.createdAt > inside[limit]!.createdAt) : inside;
  const percentile = (sorted: number[], p: number) => sorted.find((v) => sorted.filter((x) => x <= v).length * 100 >= p * sorted.length);
  const figuresOf = (chosen: Plan[], days: number): ContactFigures => {
    const times = chosen
      .filter((p) => p.delay !== null && p.createdAt >= -days * DAY)
      .map((p) => Math.max(0, p.delay!))
      .sort((a, b) => a - b);
    return { contacted: times.length, medianMs: percentile(times, 50) ?? null, p90Ms: percentile(times, 90) ?? null };
  };
  const windows = (chosen: Plan[]) => Object.fromEntries(SPEED_WINDOWS.map((w) => [w.name, figuresOf(chosen, w.days)]));
  const owners = [...new Set(read.filter((p) => p.delay !== null).map((p) => p.ownerId))];
  return {
    windows: Object.fromEntries(
      SPEED_WINDOWS.map((w) => [
        w.name,
        { ...figuresOf(read, w.days), sampled: inside.length > limit && inside[limit]!.createdAt >= -w.days * DAY },
      ]),
    ),
    owners: Object.fromEntries(owners.map((o) => [o ?? "unassigned", windows(read.filter((p) => p.ownerId === o))])),
    newNow: { count: plans.filter((p) => p.delay === null).length, capped: false },
  };
}

test("any leads, owners and limit: the figures are the sort-based model's (property)", async () => {
  const size = 12;
  const { team, ids } = await teamWith(
    "speed-property",
    Array.from({ length: size }, () => ({ createdAt: 0, delay: null, ownerId: null })),
  );
  const plan = fc.record({
    // Around both windows' edges, and after now.
    createdAt: fc.oneof(fc.integer({ min: -35 * DAY, max: HOUR }), fc.constantFrom(-7 * DAY, -7 * DAY - 1, -30 * DAY, -30 * DAY - 1, 0, 1)),
    delay: fc.option(fc.integer({ min: -HOUR, max: 3 * DAY }), { nil: null }),
    ownerId: fc.constantFrom(null, ada.id, bob.id),
  });
  await fc.assert(
    fc.asyncProperty(fc.array(plan, { minLength: size, maxLength: size }), fc.integer({ min: 1, max: size + 1 }), async (plans, limit) => {
      for (const [i, p] of plans.entries()) await place(ids[i]!, p);
      const got = await readSpeedToLead(team.id, NOW, limit);
      const expected = model(plans, limit);
      assert.deepEqual(got.windows, expected.windows);
      assert.deepEqual(byOwner(got), expected.owners);
      assert.deepEqual(got.newNow, expected.newNow);
    }),
    { numRuns: 40 },
  );
});
