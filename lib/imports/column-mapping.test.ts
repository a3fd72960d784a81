import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { EXPORT_COLUMNS } from "../leads/export-leads";
import { LIMITS } from "../leads/lead-input-schema";
import { headerSignature, mappingProblem, proposeMapping, recogniseHeader } from "./column-mapping";

describe("header recognition (case, spaces, _ and - ignored)", () => {
  const cases: [string, string][] = [
    ["E-mail", "email"],
    ["EMAIL ADDRESS", "email"],
    ["email_address", "email"],
    ["Full name", "name"],
    ["full_name", "name"],
    ["Name", "name"],
    ["First Name", "first_name"],
    ["first-name", "first_name"],
    ["Surname", "last_name"],
    ["Last name", "last_name"],
    ["Company", "organization"],
    ["Organisation", "organization"],
    ["Mobile", "mobile_no"],
    ["Mobile Number", "mobile_no"],
    ["Cell phone", "mobile_no"],
    ["Phone Number", "phone"],
    ["Telephone", "phone"],
    ["Job title", "job_title"],
    ["Title", "job_title"],
    ["Website", "website"],
    ["No. of employees", "no_of_employees"],
    ["Lead Source", "source"],
    ["utm_campaign", "utm_campaign"],
    ["UTM Source", "utm_source"],
    ["Prénom", "first_name"],
    ["Favourite colour", "extra"],
    ["Notes", "extra"],
    // A form's "your …" (Contact Form 7's your-email, Jotform's "Your Email").
    ["Your Email", "email"],
    ["your-name", "name"],
    ["Your Phone Number", "phone"],
    ["Your message", "extra"],
    ["Yourself", "extra"],
  ];
  for (const [header, target] of cases) test(`${JSON.stringify(header)} → ${target}`, () => assert.equal(recogniseHeader(header), target));
});

describe("proposeMapping", () => {
  test("the first column recognised for a field keeps it; a second one becomes an extra field", () => {
    assert.deepEqual(proposeMapping(["Email", "Work email", "First name", "Last name", "Company", "Budget"]), [
      "email",
      "extra",
      "first_name",
      "last_name",
      "organization",
      "extra",
    ]);
  });

  test("the lead list's export is mapped whole: its ids, times, channel groups, key, form, connection, currency, status, owner and submissions are left out", () => {
    const mapping = proposeMapping(EXPORT_COLUMNS);
    const byColumn = Object.fromEntries(EXPORT_COLUMNS.map((column, i) => [column, mapping[i]]));
    assert.deepEqual(byColumn, {
      id: "ignore",
      created_at: "ignore",
      first_name: "first_name",
      last_name: "last_name",
      email: "email",
      phone: "phone",
      mobile_no: "mobile_no",
      organization: "organization",
      job_title: "job_title",
      website: "website",
      territory: "territory",
      industry: "industry",
      annual_revenue: "annual_revenue",
      no_of_employees: "no_of_employees",
      currency: "ignore",
      source: "source",
      utm_source: "utm_source",
      utm_medium: "utm_medium",
      utm_campaign: "utm_campaign",
      utm_term: "utm_term",
      utm_content: "utm_content",
      channel_group: "ignore",
      first_channel_group: "ignore",
      api_key: "ignore",
      web_form: "ignore",
      connection: "ignore",
      status: "ignore",
      owner: "ignore",
      invalid_phone: "phone",
      invalid_mobile_no: "mobile_no",
      invalid_website: "website",
      extra_fields: "extra_json",
      submissions: "ignore",
      consent_status: "ignore",
      consent_at: "ignore",
      consent_purpose: "ignore",
      consent_text: "ignore",
    });
    assert.equal(mappingProblem(EXPORT_COLUMNS, mapping, LIMITS.extraFieldCount), null);
  });

  test("outside the export, id, created_at, status and owner are extra fields like any unknown column", () => {
    assert.deepEqual(proposeMapping(["ID", "Name", "Created at", "Status", "Owner"]), ["extra", "name", "extra", "extra", "extra"]);
  });
});

describe("mappingProblem", () => {
  const headers = ["A", "B", "C"];
  test("a name is required", () => assert.match(mappingProblem(headers, ["email", "extra", "ignore"], 50)!, /needs a name/));
  test("full name or first and last name, not both", () =>
    assert.match(mappingProblem(headers, ["name", "first_name", "ignore"], 50)!, /not both/));
  test("no more extra fields than a lead holds", () =>
    assert.match(mappingProblem(headers, ["name", "extra", "extra"], 1)!, /2 columns go to extra fields; a lead holds at most 1/));
  test("a mapping for other columns", () => assert.match(mappingProblem(headers, ["name"], 50)!, /does not match/));
  test("first name alone is enough", () => assert.equal(mappingProblem(headers, ["first_name", "extra", "ignore"], 50), null));
});

test("headerSignature ignores order and case", () => {
  assert.equal(headerSignature(["Email", "Name"]), headerSignature(["name", " email"]));
  assert.notEqual(headerSignature(["Email", "Name"]), headerSignature(["Email", "Name", "Phone"]));
});
