import assert from "node:assert/strict";
import { test } from "node:test";

// A chat destination's new-lead conditions as the page offers, checks and names them
// (docs/notifications.md "Which new leads"): only the team's own values, an API key by its
// description and id (never its secret), a value deleted since named as such.

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { createApiKey } = await import("../api-keys/api-key-changes");
const { createTeam } = await import("../teams/team-store");
const { ANY_LEAD, checkNewLeadFilter, describeNewLeadFilter, isAnyLead } = await import("./new-lead-filter");
const { newLeadFilterChoices } = await import("./new-lead-filter-choices");

test("the choices are the team's own; a value of another team's is refused with a sentence; the summary names each value", async () => {
  const team = await createTeam({ slug: "filter-choices", name: "Filter choices" });
  const other = await createTeam({ slug: "filter-other", name: "Other" });
  const key = await createApiKey({ teamId: team.id, description: "Partner portal" });
  const theirs = await createApiKey({ teamId: other.id, description: "Theirs" });
  const choices = await newLeadFilterChoices(team.id);
  assert.deepEqual(choices.apiKeyIds, [{ value: key.keyId, label: `Partner portal (${key.keyId})` }]);
  assert.equal(JSON.stringify(choices).includes(key.secret), false, "never a secret");
  assert.equal(choices.channelGroups.length, 10);

  const mine = { ...ANY_LEAD, apiKeyIds: [key.keyId], channelGroups: ["Paid Search"] };
  assert.equal(checkNewLeadFilter(mine, choices), null);
  assert.equal(isAnyLead(mine), false);
  assert.equal(isAnyLead(ANY_LEAD), true);
  assert.match(checkNewLeadFilter({ ...ANY_LEAD, apiKeyIds: [theirs.keyId] }, choices) ?? "", /^API key: .* not the team's/);
  assert.match(checkNewLeadFilter({ ...ANY_LEAD, channelGroups: ["Carrier pigeon"] }, choices) ?? "", /^Channel group:/);

  assert.deepEqual(describeNewLeadFilter(mine, choices), [`API key: Partner portal (${key.keyId})`, "Channel group: Paid Search"]);
  assert.deepEqual(describeNewLeadFilter({ ...ANY_LEAD, formIds: ["gone"] }, choices), ["Web form: a deleted web form"]);
  assert.deepEqual(describeNewLeadFilter(ANY_LEAD, choices), []);
});
