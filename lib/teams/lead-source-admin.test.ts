import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { createLead } from "../leads/create-lead";
import { findLead } from "../leads/lead-store";
import { addLeadSource, deleteLeadSource, listLeadSources } from "./lead-sources";
import { createTeam } from "./team-store";

await useTestDatabase();

test("deleting a source moves its leads to API; API itself and other teams' sources are refused", async () => {
  const [team, other] = [
    await createTeam({ slug: "sources", name: "Sources" }),
    await createTeam({ slug: "elsewhere", name: "Elsewhere" }),
  ];
  const website = await addLeadSource(team.id, "Website");
  const foreign = await addLeadSource(other.id, "Foreign");
  const { leadId } = await createLead({
    team: { id: team.id, defaultPhoneCountry: null },
    apiKeyId: null,
    input: { name: "Ada Lovelace", source: "website", extraFields: {} },
  });
  const rows = await listLeadSources(team.id);
  assert.deepEqual(
    rows.map((s) => [s.name, s.leadCount, s.isApi]),
    [
      ["API", 0, true],
      ["Website", 1, false],
    ],
  );

  const api = rows.find((s) => s.isApi)!;
  assert.equal(await deleteLeadSource({ teamId: team.id, sourceId: api.id }), "protected");
  assert.equal(await deleteLeadSource({ teamId: team.id, sourceId: foreign.id }), "not-found");
  assert.deepEqual(
    (await listLeadSources(other.id)).map((s) => s.name),
    ["API", "Foreign"],
  );

  assert.equal(await deleteLeadSource({ teamId: team.id, sourceId: website.id }), "deleted");
  assert.deepEqual(
    (await listLeadSources(team.id)).map((s) => [s.name, s.leadCount]),
    [["API", 1]],
  );
  assert.equal((await findLead({ id: leadId, teamId: team.id }))?.source.name, "API");
  assert.equal(await deleteLeadSource({ teamId: team.id, sourceId: website.id }), "not-found");
});
