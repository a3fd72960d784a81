import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import type { Availability } from "../routing/availability";
import { addMember, createTeam } from "../teams/team-store";
import { readAvailability, setAvailability } from "./availability-store";

// A member's availability as stored (lib/users/availability-store.ts), and the routing
// version it bumps in each of their teams, in the same transaction.

const database = await useTestDatabase();

let count = 0;

async function makeUser() {
  const n = ++count;
  return db().user.create({ data: { email: `available-${n}@example.com`, passwordHash: "x" }, select: { id: true } });
}

async function makeTeam() {
  const n = ++count;
  return createTeam({ slug: `routing-${n}`, name: `Routing ${n}` });
}

/** The routing version of each team, in the order given. */
async function versions(...teams: { id: string }[]): Promise<number[]> {
  const rows = await db().team.findMany({
    where: { id: { in: teams.map((team) => team.id) } },
    select: { id: true, routingVersion: true },
  });
  return teams.map((team) => rows.find((row) => row.id === team.id)!.routingVersion);
}

const berlinHours = { timeZone: "Europe/Berlin", days: [1, 2, 3, 4, 5], start: "09:00", end: "17:00" };

test("a new user is available, and what is set reads back as set, hours cleared included", async () => {
  const user = await makeUser();
  assert.deepEqual(await readAvailability(user.id), { away: false, awayUntil: null, workingHours: null });

  const away: Availability = { away: true, awayUntil: new Date("2026-07-01T22:00:00.123Z"), workingHours: berlinHours };
  assert.equal(await setAvailability(user.id, away), true);
  assert.deepEqual(await readAvailability(user.id), away);

  const nightShift: Availability = {
    away: false,
    awayUntil: null,
    workingHours: { timeZone: "America/New_York", days: [7], start: "22:00", end: "06:00" },
  };
  await setAvailability(user.id, nightShift);
  assert.deepEqual(await readAvailability(user.id), nightShift);

  await setAvailability(user.id, { away: false, awayUntil: null, workingHours: null });
  assert.deepEqual(await readAvailability(user.id), { away: false, awayUntil: null, workingHours: null });
  const row = await db().user.findUniqueOrThrow({ where: { id: user.id }, select: { workingHours: true } });
  assert.equal(row.workingHours, null, "no hours are a database NULL, not a JSON null");
});

test("hours stored that no longer parse read as none: the member is always on duty", async () => {
  const user = await makeUser();
  await db().user.update({ where: { id: user.id }, data: { workingHours: { ...berlinHours, timeZone: "Atlantis/Capital" } } });
  assert.equal((await readAvailability(user.id)).workingHours, null);
  await db().user.update({ where: { id: user.id }, data: { workingHours: "09:00-17:00" } });
  assert.equal((await readAvailability(user.id)).workingHours, null);
});

test("each change bumps the routing version of every team of the user, and of no other team", async () => {
  const user = await makeUser();
  const colleague = await makeUser();
  const [first, second, other] = [await makeTeam(), await makeTeam(), await makeTeam()];
  await addMember({ teamId: first.id, userId: user.id, role: "member" });
  await addMember({ teamId: second.id, userId: user.id, role: "owner" });
  await addMember({ teamId: first.id, userId: colleague.id, role: "member" });
  await addMember({ teamId: other.id, userId: colleague.id, role: "member" });
  assert.deepEqual(await versions(first, second, other), [0, 0, 0]);

  await setAvailability(user.id, { away: true, awayUntil: null, workingHours: null });
  assert.deepEqual(await versions(first, second, other), [1, 1, 0]);
  // The same values again still bump: whether a change changes whom leads go to is the intake's to read.
  await setAvailability(user.id, { away: true, awayUntil: null, workingHours: null });
  assert.deepEqual(await versions(first, second, other), [2, 2, 0]);
  await setAvailability(colleague.id, { away: false, awayUntil: null, workingHours: berlinHours });
  assert.deepEqual(await versions(first, second, other), [3, 2, 1]);

  const loner = await makeUser();
  assert.equal(await setAvailability(loner.id, { away: true, awayUntil: null, workingHours: null }), true, "a user in no team");
  assert.equal(await setAvailability("no-such-user", { away: true, awayUntil: null, workingHours: null }), false);
  assert.deepEqual(await versions(first, second, other), [3, 2, 1]);
});

test("one transaction: when a team's bump fails, neither the user nor any team is changed", async () => {
  const user = await makeUser();
  const teams = [await makeTeam(), await makeTeam()].sort((a, b) => (a.id < b.id ? -1 : 1));
  for (const team of teams) await addMember({ teamId: team.id, userId: user.id, role: "member" });
  const before: Availability = { away: false, awayUntil: null, workingHours: berlinHours };
  await setAvailability(user.id, before);
  // The later team (in the order the bumps run) refuses its update: the first team's bump and
  // the user's row, both written by then, must be rolled back with it.
  const refusing = teams[1]!.id;
  await refuseTeamUpdates(refusing);
  try {
    await assert.rejects(setAvailability(user.id, { away: true, awayUntil: new Date("2026-08-01T00:00:00Z"), workingHours: null }));
  } finally {
    await allowTeamUpdates();
  }
  assert.deepEqual(await readAvailability(user.id), before);
  assert.deepEqual(await versions(...teams), [1, 1]);
});

/** A trigger that makes any update of the team's row fail. */
async function refuseTeamUpdates(teamId: string): Promise<void> {
  if (database.provider === "sqlite") {
    await db().$executeRawUnsafe(
      `CREATE TRIGGER "refuse_team_update" BEFORE UPDATE ON "Team" WHEN NEW."id" = '${teamId}' BEGIN SELECT RAISE(ABORT, 'refused'); END`,
    );
    return;
  }
  await db().$executeRawUnsafe(
    `CREATE FUNCTION "refuse_team_update"() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$ LANGUAGE plpgsql`,
  );
  await db().$executeRawUnsafe(
    `CREATE TRIGGER "refuse_team_update" BEFORE UPDATE ON "Team" FOR EACH ROW WHEN (NEW."id" = '${teamId}') EXECUTE FUNCTION "refuse_team_update"()`,
  );
}

async function allowTeamUpdates(): Promise<void> {
  if (database.provider === "sqlite") {
    await db().$executeRawUnsafe(`DROP TRIGGER "refuse_team_update"`);
    return;
  }
  await db().$executeRawUnsafe(`DROP TRIGGER "refuse_team_update" ON "Team"`);
  await db().$executeRawUnsafe(`DROP FUNCTION "refuse_team_update"()`);
}
