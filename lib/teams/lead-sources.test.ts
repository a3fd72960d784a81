import assert from "node:assert/strict";
import { before, describe, test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { isDatabaseUnavailable } from "../db/errors";
import { API_SOURCE_NAME, addLeadSource, resolveLeadSource } from "./lead-sources";
import { addMember, createTeam, deleteTeam, findTeamBySlug, isValidSlug } from "./team-store";

await useTestDatabase();

let userCount = 0;
/** A user row without password hashing (slow, and not under test here). */
const makeUser = () => db().user.create({ data: { email: `user-${++userCount}@example.com`, passwordHash: "x" }, select: { id: true } });

describe("isValidSlug", () => {
  const cases: [string, boolean][] = [
    ["demo", true],
    ["acme-sales", true],
    ["a", true],
    ["team-42", true],
    ["a".repeat(40), true],
    ["a".repeat(41), false],
    ["", false],
    ["-demo", false],
    ["demo-", false],
    ["Demo", false],
    ["de mo", false],
    ["de_mo", false],
    ["démo", false],
  ];
  for (const [slug, valid] of cases) {
    test(`${JSON.stringify(slug)} → ${valid}`, () => assert.equal(isValidSlug(slug), valid));
  }
});

describe("createTeam", () => {
  test('makes the team with its "API" lead source and its owner', async () => {
    const owner = await makeUser();
    const team = await createTeam({ slug: "acme", name: "Acme", ownerUserId: owner.id, defaultPhoneCountry: "gb" });
    assert.deepEqual(team, { id: team.id, slug: "acme", name: "Acme", defaultPhoneCountry: "GB" });
    const sources = await db().leadSource.findMany({ where: { teamId: team.id }, select: { name: true, nameKey: true } });
    assert.deepEqual(sources, [{ name: "API", nameKey: "api" }]);
    const memberships = await db().membership.findMany({ where: { teamId: team.id }, select: { userId: true, role: true } });
    assert.deepEqual(memberships, [{ userId: owner.id, role: "owner" }]);
    assert.deepEqual(await findTeamBySlug("acme"), team);
  });

  test("without an owner or a default country", async () => {
    const team = await createTeam({ slug: "solo", name: "Solo" });
    assert.equal(team.defaultPhoneCountry, null);
    assert.equal(await db().membership.count({ where: { teamId: team.id } }), 0);
    assert.equal(await db().leadSource.count({ where: { teamId: team.id, nameKey: "api" } }), 1);
  });

  test("an invalid slug creates nothing", async () => {
    const before = await db().team.count();
    await assert.rejects(createTeam({ slug: "Not Valid", name: "x" }), /Invalid team slug "Not Valid"/);
    assert.equal(await db().team.count(), before);
  });

  test("a taken slug fails with a unique violation (not an outage) and creates no second source", async () => {
    await createTeam({ slug: "taken", name: "First" });
    const sources = await db().leadSource.count();
    await assert.rejects(createTeam({ slug: "taken", name: "Second" }), (error: unknown) => {
      assert.equal((error as { code?: string }).code, "P2002");
      assert.equal(isDatabaseUnavailable(error), false);
      return true;
    });
    assert.equal(await db().leadSource.count(), sources);
  });

  test("is all or nothing: an unknown owner leaves no team and no source behind", async () => {
    const [teams, sources] = [await db().team.count(), await db().leadSource.count()];
    await assert.rejects(createTeam({ slug: "orphan", name: "Orphan", ownerUserId: "no-such-user" }));
    assert.equal(await findTeamBySlug("orphan"), null);
    assert.equal(await db().team.count(), teams);
    assert.equal(await db().leadSource.count(), sources);
  });

  test("addMember adds, then changes the role of, a member", async () => {
    const team = await createTeam({ slug: "members", name: "Members" });
    const user = await makeUser();
    await addMember({ teamId: team.id, userId: user.id, role: "member" });
    await addMember({ teamId: team.id, userId: user.id, role: "admin" });
    const rows = await db().membership.findMany({ where: { teamId: team.id }, select: { role: true } });
    assert.deepEqual(rows, [{ role: "admin" }]);
  });

  test("deleteTeam removes the team and its sources", async () => {
    const team = await createTeam({ slug: "doomed", name: "Doomed" });
    await addLeadSource(team.id, "Website");
    await deleteTeam(team.id);
    assert.equal(await findTeamBySlug("doomed"), null);
    assert.equal(await db().leadSource.count({ where: { teamId: team.id } }), 0);
  });
});

describe("resolveLeadSource (spec 2.1: the team's source by name, else API)", () => {
  // Made in `before`, not in the describe's body: a body runs when the file is loaded, while
  // the tests above run, and their counts of every team's sources would see these rows.
  type Source = { id: string; name: string };
  let team: { id: string };
  let other: { id: string };
  let website: Source;
  let fair: Source;
  let otherOnly: Source;
  let api: Source;
  before(async () => {
    team = await createTeam({ slug: "sources", name: "Sources" });
    other = await createTeam({ slug: "sources-other", name: "Other" });
    website = await addLeadSource(team.id, "  Website ");
    fair = await addLeadSource(team.id, "Trade Fair");
    otherOnly = await addLeadSource(other.id, "Partner");
    api = await db().leadSource.findFirstOrThrow({ where: { teamId: team.id, name: API_SOURCE_NAME }, select: { id: true, name: true } });
  });

  test("addLeadSource stores the trimmed name and a lower-case key", async () => {
    assert.equal(website.name, "Website");
    const row = await db().leadSource.findUniqueOrThrow({ where: { id: website.id } });
    assert.equal(row.nameKey, "website");
  });

  // Each request and the source it must resolve to (named here: the rows are made in `before`).
  const cases: [requested: string | undefined, expected: "Website" | "Trade Fair" | "API"][] = [
    ["Website", "Website"],
    ["website", "Website"],
    ["WEBSITE", "Website"],
    ["  WebSite  ", "Website"],
    ["trade fair", "Trade Fair"],
    ["Trade  Fair", "API"],
    ["API", "API"],
    ["api", "API"],
    ["Newsletter", "API"],
    ["Partner", "API"],
    ["", "API"],
    ["   ", "API"],
    [undefined, "API"],
  ];
  for (const [requested, expected] of cases) {
    test(`${JSON.stringify(requested)} → ${expected}`, async () => {
      const source = { Website: website, "Trade Fair": fair, API: api }[expected];
      assert.deepEqual(await resolveLeadSource(team.id, requested), { id: source.id, name: source.name });
    });
  }

  test("each team gets its own sources: the other team's Partner, this team's API", async () => {
    assert.deepEqual(await resolveLeadSource(other.id, "partner"), { id: otherOnly.id, name: "Partner" });
    const otherApi = await resolveLeadSource(other.id, "website");
    assert.equal(otherApi.name, "API");
    assert.notEqual(otherApi.id, api.id);
  });

  test("a second source differing only in case is refused", async () => {
    await assert.rejects(addLeadSource(team.id, "WEBSITE"), (error: unknown) => {
      assert.equal((error as { code?: string }).code, "P2002");
      return true;
    });
  });

  test("a team that lost its API source gets it back, once", async () => {
    const lost = await createTeam({ slug: "lost-api", name: "Lost" });
    await db().leadSource.deleteMany({ where: { teamId: lost.id } });
    const first = await resolveLeadSource(lost.id, "Unknown");
    assert.equal(first.name, "API");
    const [again, concurrent] = await Promise.all([resolveLeadSource(lost.id), resolveLeadSource(lost.id, "x")]);
    assert.equal(again.id, first.id);
    assert.equal(concurrent.id, first.id);
    assert.equal(await db().leadSource.count({ where: { teamId: lost.id } }), 1);
  });

  test("creates racing to repair a lost API source all get the one source, none an error", async () => {
    // Prisma's upsert reads, then inserts: the racers that lose the insert hit the unique key
    // (seen on PostgreSQL as a failed create_lead); they take the winner's row.
    for (let round = 0; round < 5; round++) {
      const lost = await createTeam({ slug: `lost-api-race-${round}`, name: "Lost" });
      await db().leadSource.deleteMany({ where: { teamId: lost.id } });
      const sources = await Promise.all(Array.from({ length: 12 }, (_, i) => resolveLeadSource(lost.id, i % 2 ? "Unknown" : undefined)));
      assert.equal(new Set(sources.map((source) => source.id)).size, 1);
      assert.equal(await db().leadSource.count({ where: { teamId: lost.id } }), 1);
    }
  });
});
