import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import type { RawField } from "../http/read-body";
import type { Team } from "../teams/team-store";
import { LEAD_CREATED, successMessage, type SkippableField } from "./create-lead";
import { create, makeTeam } from "./create-lead.fixtures";

// The fields createLead (lib/leads/create-lead.ts) skips instead of refusing, and the success
// message naming them (spec 4.1): phones and mobiles by country code or the team's default
// country, an unknown dial code, a website that is no http(s) URL; each skipped text kept
// outside its column. Stored fields: create-lead-fields.test.ts.

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
