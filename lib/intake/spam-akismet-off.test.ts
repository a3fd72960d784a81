import assert from "node:assert/strict";
import { after, mock, test } from "node:test";
import { startAkismetFake } from "../test-support/akismet-fake";

// Without AKISMET_API_KEY (the default) no submission leaves this server: even with the
// endpoint and the site set, Akismet is never called and the local verdict is the verdict
// (docs/spam.md "Akismet (optional)"). With the key: spam-akismet.test.ts.
const fake = await startAkismetFake({ marker: "AKISMET-SAYS-SPAM" });
delete process.env.AKISMET_API_KEY;
process.env.AKISMET_ENDPOINT = fake.endpoint;
process.env.AKISMET_BLOG = "https://leads.example.com";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { db } = await import("../db/client");
const { newForm, post } = await import("../web-forms/web-forms.fixtures");

mock.method(process.stderr, "write", () => true);
after(() => fake.close());

test("without AKISMET_API_KEY a web form's submission the local checks keep is a lead, and Akismet is never called", async () => {
  const { formId } = await newForm({ challenge: false });
  const response = await post(formId, { name: "Sam Taylor", email: "sam@example.com", message: "Great offer AKISMET-SAYS-SPAM" });
  assert.equal(response.status, 201);
  const { lead_id } = (await response.json()) as { lead_id: string };
  assert.equal(await db().lead.count({ where: { id: lead_id } }), 1);
  assert.equal(fake.requests.length, 0);
});
