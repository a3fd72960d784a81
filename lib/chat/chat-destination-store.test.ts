import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { createTeam } from "../teams/team-store";
import { destinationForDelivery, findDestination, insertDestination, listDestinations } from "./chat-destination-store";
import { ANY_LEAD } from "./new-lead-filter";

// A destination's URL is sealed at rest and read back masked (docs/notifications.md "The URL is a secret").

const database = await useTestDatabase();
const team = await createTeam({ slug: "chat-store", name: "Chat store" });
const other = await createTeam({ slug: "chat-store-other", name: "Other" });
const URL_SECRET = "https://hooks.slack.com/services/T0SEALED/B0SEALED/sealedsecretvalue42";

const settings = {
  name: "Sales",
  postNewLeads: true,
  newLeadFilter: ANY_LEAD,
  postAssignments: true,
  postReminders: false,
  postRepeats: true,
  includeFields: [],
};

test("the URL is stored sealed, shown masked, and opened for a delivery only", async () => {
  const { id } = await db().$transaction((tx) =>
    insertDestination(tx, { ...settings, teamId: team.id, platform: "slack", url: URL_SECRET, createdById: null }),
  );
  const [listed] = await listDestinations(team.id);
  assert.equal(listed?.maskedUrl, "https://hooks.slack.com/serv…");
  assert.equal(JSON.stringify(listed).includes("sealedsecretvalue42"), false);
  assert.deepEqual(listed?.includeFields, []);
  assert.equal((await destinationForDelivery(id))?.url, URL_SECRET);
  assert.equal(database.storedBytes().includes("sealedsecretvalue42"), false);
  assert.equal(await findDestination(db(), { id, teamId: other.id }), null);
});
