import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { addLeadSource } from "../teams/lead-sources";
import { setWorkspaceCurrency, workspaceCurrency } from "../workspace/settings";
import { create, makeTeam } from "./create-lead.fixtures";

// What createLead (lib/leads/create-lead.ts) stores: every field of spec 2.1 by the rules, a
// lead with only a name, the source by name or API; extra fields whose names mean something
// to JavaScript or Prisma kept as plain data, repeated ones as lists; the workspace's
// currency whatever is posted. Skipped phones and websites: create-lead-skipped-fields.test.ts.

await useTestDatabase();

describe("createLead stores every field by the rules", async () => {
  const team = await makeTeam();
  const website = await addLeadSource(team.id, "Website");

  test("a lead with every field of spec 2.1", async () => {
    const { leadId, skipped, lead } = await create(team, [
      ["name", "  Ada   King  Lovelace "],
      ["email", "Ada.Lovelace@Example.COM"],
      ["phone", "+44 7911 123456"],
      ["mobile_no", "0049 30 1234567"],
      ["source", "WEBSITE"],
      ["organization", "Analytical Engines"],
      ["job_title", "Mathematician"],
      ["website", "example.com/ada"],
      ["territory", "Europe"],
      ["industry", "Computing"],
      ["annual_revenue", 1_000_000],
      ["no_of_employees", "50-100"],
      ["currency", "EUR"],
      ["utm_source", "newsletter"],
      ["utm_medium", "email"],
      ["utm_campaign", "launch"],
      ["utm_term", "engines"],
      ["utm_content", "header"],
      ["favourite_colour", "teal"],
      ["visits", 3],
    ]);
    assert.deepEqual(skipped, []);
    const { createdAt, source, ...stored } = lead;
    assert.ok(Date.now() - createdAt.getTime() < 60_000);
    assert.deepEqual(source, { name: "Website", teamId: team.id });
    assert.deepEqual(stored, {
      id: leadId,
      seq: lead.seq,
      teamId: team.id,
      firstName: "Ada",
      lastName: "King Lovelace",
      email: "Ada.Lovelace@Example.COM",
      emailKey: "ada.lovelace@example.com",
      nameKey: "ada king lovelace",
      lastNameKey: "king lovelace",
      organizationKey: "analytical engines",
      phone: "+447911123456",
      phoneCountryCode: "+44",
      phoneNational: "7911123456",
      mobileNo: "+49301234567",
      mobileCountryCode: "+49",
      mobileNational: "301234567",
      skippedPhone: null,
      skippedMobileNo: null,
      skippedWebsite: null,
      organization: "Analytical Engines",
      sourceId: website.id,
      jobTitle: "Mathematician",
      website: "https://example.com/ada",
      territory: "Europe",
      industry: "Computing",
      annualRevenue: "1000000",
      noOfEmployees: "50-100",
      currency: "USD",
      utmSource: "newsletter",
      utmMedium: "email",
      utmCampaign: "launch",
      utmTerm: "engines",
      utmContent: "header",
      extraFields: { favourite_colour: "teal", visits: 3 },
      mergedLeadIds: null,
      apiKeyId: "0123456789abcdef0123",
      formId: null,
      connectionId: null,
      importId: null,
      // New and unassigned (docs/routing.md).
      status: "new",
      ownerId: null,
      assignedAt: null,
      firstContactedAt: null,
      returnedAt: null,
      // utm_medium "email" (GA4's rules, docs/attribution.md); no first_* field: first = last.
      channelGroup: "Email",
      firstChannelGroup: "Email",
    });
    assert.match(leadId, /^CRM-LEAD-\d{5,}$/);
  });

  test("a lead with only a name: one word, no last name, organization = the name, source API, nulls", async () => {
    const { lead } = await create(team, [["name", " Cher "]], null);
    assert.equal(lead.firstName, "Cher");
    assert.equal(lead.lastName, null);
    assert.equal(lead.organization, "Cher");
    assert.equal(lead.source.name, "API");
    assert.equal(lead.apiKeyId, null);
    for (const field of ["email", "emailKey", "phone", "mobileNo", "website", "annualRevenue", "utmSource"] as const) {
      assert.equal(lead[field], null, field);
    }
    assert.deepEqual(lead.extraFields, {});
  });

  test("organization defaults to the whole name, inner spaces collapsed", async () => {
    const { lead } = await create(team, [["name", "Grace   Brewster  Hopper"]]);
    assert.equal(lead.organization, "Grace Brewster Hopper");
  });

  test("an unknown source falls back to API", async () => {
    const { lead } = await create(team, [
      ["name", "Alan Turing"],
      ["source", "Carrier Pigeon"],
    ]);
    assert.equal(lead.source.name, "API");
    assert.equal(lead.source.teamId, team.id);
  });

  test("a posted id, team or creation time changes nothing but extraFields", async () => {
    const other = await makeTeam();
    const { leadId, lead } = await create(team, [
      ["name", "Mallory"],
      ["id", "CRM-LEAD-99999"],
      ["team", other.id],
      ["teamId", other.id],
      ["creation", "2000-01-01T00:00:00Z"],
      ["createdAt", "2000-01-01T00:00:00Z"],
    ]);
    assert.notEqual(leadId, "CRM-LEAD-99999");
    assert.equal(lead.id, leadId);
    assert.equal(lead.teamId, team.id);
    assert.ok(lead.createdAt.getFullYear() > 2000);
    assert.deepEqual(lead.extraFields, {
      id: "CRM-LEAD-99999",
      team: other.id,
      teamId: other.id,
      creation: "2000-01-01T00:00:00Z",
      createdAt: "2000-01-01T00:00:00Z",
    });
  });
});

describe("createLead: extra field names that mean something to JavaScript or Prisma are stored as plain data", async () => {
  const team = await makeTeam();
  const bodies = [
    '{"name":"Eve","__proto__":"p","constructor":"c","hasOwnProperty":"h"}',
    '{"name":"Eve","toJSON":"t","a":1}',
    '{"name":"Eve","__prismaRawParameters__":true,"values":"{\\"injected\\":1}"}',
    '{"name":"Eve","__prismaRawParameters__":true}',
    '{"name":"Eve","$type":"x","a":1}',
    '{"name":"Eve","$type":"Raw","value":"v"}',
    '{"name":"Eve","$type":"Json","value":"{\\"injected\\":1}"}',
    '{"name":"Eve","$type":"FieldRef","value":"teamId"}',
    '{"name":"Eve","$type":"DateTime","value":"2020-01-01T00:00:00Z"}',
  ];
  for (const body of bodies) {
    test(body, async () => {
      const fields = Object.entries(JSON.parse(body) as Record<string, unknown>);
      const sent = fields.filter(([name]) => name !== "name");
      const { lead } = await create(team, fields);
      const stored = lead.extraFields as Record<string, unknown>;
      assert.equal(Object.getPrototypeOf(stored), Object.prototype);
      // PostgreSQL's jsonb stores object keys in its own order; SQLite keeps the posted one.
      const byName = (entries: [string, unknown][]) => entries.sort(([x], [y]) => (x < y ? -1 : 1));
      assert.deepEqual(byName(Object.entries(stored)), byName(sent));
      assert.equal(({} as Record<string, unknown>).p, undefined);
    });
  }
});

describe("createLead: currency is always the workspace's", async () => {
  const team = await makeTeam();

  test("the default workspace currency is USD, whatever is posted", async () => {
    assert.equal(await workspaceCurrency(), "USD");
    const { lead } = await create(team, [
      ["name", "Ada"],
      ["currency", "EUR"],
    ]);
    assert.equal(lead.currency, "USD");
  });

  test("after the workspace changes to EUR, a posted USD or JPY is stored as EUR", async () => {
    await setWorkspaceCurrency("EUR");
    try {
      for (const posted of ["USD", "JPY", "eur"]) {
        const { lead } = await create(team, [
          ["name", "Ada"],
          ["currency", posted],
        ]);
        assert.equal(lead.currency, "EUR", `posted ${posted}`);
      }
      const { lead } = await create(team, [["name", "Ada"]]);
      assert.equal(lead.currency, "EUR");
    } finally {
      await setWorkspaceCurrency("USD");
    }
  });
});

describe("createLead: repeated extra fields are stored as lists", async () => {
  const team = await makeTeam();

  test("a checkbox group and a JSON array come back as lists in the order sent", async () => {
    const { lead } = await create(team, [
      ["name", "Ada"],
      ["interests", "b"],
      ["interests", "a"],
      ["tags[]", "x"],
      ["scores", [3, 1, 2]],
    ]);
    const stored = lead.extraFields as Record<string, unknown>;
    assert.deepEqual(stored.interests, ["b", "a"]);
    assert.deepEqual(stored.tags, ["x"]);
    assert.deepEqual(stored.scores, [3, 1, 2]);
  });
});
