import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { addLeadSource } from "../teams/lead-sources";
import { createTeam, type Team } from "../teams/team-store";
import { setWorkspaceCurrency, workspaceCurrency } from "../workspace/settings";
import { LEAD_CREATED, createLead, successMessage, type SkippableField } from "./create-lead";
import type { RawField } from "../http/read-body";
import { parseLeadInput } from "./parse-lead-input";

await useTestDatabase();

describe("successMessage (spec 4.1)", () => {
  const cases: [SkippableField[], string][] = [
    [[], "Lead created successfully"],
    [["phone"], "Lead created successfully (skipped invalid fields: phone)"],
    [["mobile_no"], "Lead created successfully (skipped invalid fields: mobile_no)"],
    [["phone", "mobile_no"], "Lead created successfully (skipped invalid fields: phone, mobile_no)"],
  ];
  for (const [skipped, message] of cases) {
    test(`${JSON.stringify(skipped)} → ${JSON.stringify(message)}`, () => {
      assert.equal(successMessage(skipped), message);
    });
  }
  test("the base text is exact", () => assert.equal(LEAD_CREATED, "Lead created successfully"));
});

let teamCount = 0;
const makeTeam = (defaultPhoneCountry: string | null = null) =>
  createTeam({ slug: `team-${++teamCount}`, name: `Team ${teamCount}`, defaultPhoneCountry });

/** What the endpoint does after authentication: parse the fields, then create. */
async function create(team: Team, fields: RawField[], apiKeyId: string | null = "0123456789abcdef0123") {
  const result = await createLead({ team, apiKeyId, input: parseLeadInput(fields) });
  const lead = await db().lead.findUniqueOrThrow({
    where: { id: result.leadId },
    include: { source: { select: { name: true, teamId: true } } },
  });
  return { ...result, lead };
}

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
      importId: null,
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

describe("createLead: phones", async () => {
  const plain = await makeTeam();
  const british = await makeTeam("GB");

  type PhoneCase = {
    title: string;
    team: () => Team;
    fields: RawField[];
    skipped: SkippableField[];
    stored: {
      phone: string | null;
      phoneCountryCode: string | null;
      phoneNational: string | null;
      mobileNo: string | null;
      mobileCountryCode: string | null;
      mobileNational: string | null;
    };
  };
  const NO_PHONE = { phone: null, phoneCountryCode: null, phoneNational: null };
  const NO_MOBILE = { mobileNo: null, mobileCountryCode: null, mobileNational: null };
  const UK_PHONE = { phone: "+447911123456", phoneCountryCode: "+44", phoneNational: "7911123456" };
  const UK_MOBILE = { mobileNo: "+447911123456", mobileCountryCode: "+44", mobileNational: "7911123456" };
  const US_MOBILE = { mobileNo: "+12025550123", mobileCountryCode: "+1", mobileNational: "2025550123" };

  const cases: PhoneCase[] = [
    {
      title: "both valid, international",
      team: () => plain,
      fields: [
        ["phone", "+44 7911 123456"],
        ["mobile_no", "+1 202 555 0123"],
      ],
      skipped: [],
      stored: { ...UK_PHONE, ...US_MOBILE },
    },
    {
      title: "plain numbers with country_code 44",
      team: () => plain,
      fields: [
        ["phone", "07911 123456"],
        ["mobile_no", "7911123456"],
        ["country_code", "44"],
      ],
      skipped: [],
      stored: { ...UK_PHONE, ...UK_MOBILE },
    },
    {
      title: "a plain number uses the team's default country",
      team: () => british,
      fields: [["mobile_no", "07911 123456"]],
      skipped: [],
      stored: { ...NO_PHONE, ...UK_MOBILE },
    },
    {
      title: "country_code beats the team's default country",
      team: () => british,
      fields: [
        ["mobile_no", "202 555 0123"],
        ["country_code", "+1"],
      ],
      skipped: [],
      stored: { ...NO_PHONE, ...US_MOBILE },
    },
    {
      title: "a plain number without country_code or default is skipped",
      team: () => plain,
      fields: [["phone", "07911 123456"]],
      skipped: ["phone"],
      stored: { ...NO_PHONE, ...NO_MOBILE },
    },
    {
      title: "an invalid mobile is skipped, the valid phone kept",
      team: () => plain,
      fields: [
        ["phone", "+44 7911 123456"],
        ["mobile_no", "12"],
      ],
      skipped: ["mobile_no"],
      stored: { ...UK_PHONE, ...NO_MOBILE },
    },
    {
      title: "both invalid: skipped in the order phone, mobile_no whatever the order sent",
      team: () => plain,
      fields: [
        ["mobile_no", "not a number"],
        ["phone", "+44 12"],
      ],
      skipped: ["phone", "mobile_no"],
      stored: { ...NO_PHONE, ...NO_MOBILE },
    },
  ];

  for (const { title, team, fields, skipped, stored } of cases) {
    test(title, async () => {
      const result = await create(team(), [["name", "Ada"], ...fields]);
      assert.deepEqual(result.skipped, skipped);
      const { phone, phoneCountryCode, phoneNational, mobileNo, mobileCountryCode, mobileNational } = result.lead;
      assert.deepEqual({ phone, phoneCountryCode, phoneNational, mobileNo, mobileCountryCode, mobileNational }, stored);
      assert.equal(successMessage(result.skipped), successMessage(skipped));
      // Issue 11: a skipped number keeps what was typed, outside the phone columns.
      const sent = new Map(fields);
      assert.equal(result.lead.skippedPhone, skipped.includes("phone") ? String(sent.get("phone")).trim() : null);
      assert.equal(result.lead.skippedMobileNo, skipped.includes("mobile_no") ? String(sent.get("mobile_no")).trim() : null);
    });
  }

  test("an unknown dial code skips the number (500 before) and keeps its text", async () => {
    for (const countryCode of ["+999", "0", "+1234", "+99"]) {
      const result = await create(plain, [
        ["name", "Ada"],
        ["phone", "7911 123456"],
        ["mobile_no", "07911123456"],
        ["country_code", countryCode],
      ]);
      assert.deepEqual(result.skipped, ["phone", "mobile_no"], countryCode);
      assert.equal(result.lead.skippedPhone, "7911 123456");
      assert.equal(result.lead.skippedMobileNo, "07911123456");
    }
  });
});

describe("createLead: a website that is no http(s) URL is skipped, not refused", async () => {
  const team = await makeTeam();

  test("the lead is created, the suffix names website, the text is kept outside the website column", async () => {
    for (const sent of ["n/a", "javascript:alert(1)", "my site"]) {
      const result = await create(team, [
        ["name", "Ada"],
        ["website", sent],
      ]);
      assert.deepEqual(result.skipped, ["website"]);
      assert.equal(successMessage(result.skipped), "Lead created successfully (skipped invalid fields: website)");
      assert.deepEqual([result.lead.website, result.lead.skippedWebsite], [null, sent]);
    }
  });

  test("skipped fields are named in the order phone, mobile_no, website", async () => {
    const result = await create(team, [
      ["name", "Ada"],
      ["website", "n/a"],
      ["mobile_no", "12"],
      ["phone", "x1"],
    ]);
    assert.deepEqual(result.skipped, ["phone", "mobile_no", "website"]);
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
