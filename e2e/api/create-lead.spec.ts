import { expect, test } from "@playwright/test";
import { deleteApiKey } from "../../lib/api-keys/api-key-changes";
import { db } from "../../lib/db/client";
import { countLeads, findLead } from "../../lib/leads/lead-store";
import { addLeadSource } from "../../lib/teams/lead-sources";
import { deleteTeam } from "../../lib/teams/team-store";
import { workspaceCurrency } from "../../lib/workspace/settings";
import { CREATE_LEAD, authHeaders, newTeamWithKey } from "../support/fixtures";

// Real HTTP against `next start` on a real SQLite file (playwright.config.ts).

test.describe("successful creation", () => {
  test("JSON body: 201, spec response fields, every rule applied to the stored lead", async ({ request }) => {
    const { team, key } = await newTeamWithKey();
    await addLeadSource(team.id, "Website Form");
    const res = await request.post(CREATE_LEAD, {
      headers: authHeaders(key),
      data: {
        name: "  Ada   Augusta  Lovelace ",
        email: "Ada@Example.com",
        phone: "+44 7911 123456",
        mobile_no: "0049 1512 3456789",
        source: "website form",
        job_title: "Analyst",
        website: "https://ada.example.com",
        territory: "UK",
        industry: "Computing",
        annual_revenue: 1200000,
        no_of_employees: "11-50",
        currency: "EUR",
        utm_source: "google",
        utm_medium: "cpc",
        utm_campaign: "launch",
        utm_term: "engines",
        utm_content: "ad-1",
        favourite_engine: "analytical",
        newsletter: true,
        empty_one: "",
      },
    });
    expect(res.status()).toBe(201);
    const body = await res.json();
    expect(body).toEqual({ success: true, lead_id: expect.stringMatching(/^CRM-LEAD-\d{5,}$/), message: "Lead created successfully" });

    const lead = await findLead({ id: body.lead_id, teamId: team.id });
    expect(lead).toMatchObject({
      firstName: "Ada",
      lastName: "Augusta Lovelace",
      email: "Ada@Example.com",
      emailKey: "ada@example.com",
      phone: "+447911123456",
      phoneCountryCode: "+44",
      phoneNational: "7911123456",
      mobileNo: "+4915123456789",
      mobileCountryCode: "+49",
      mobileNational: "15123456789",
      organization: "Ada Augusta Lovelace",
      jobTitle: "Analyst",
      website: "https://ada.example.com",
      territory: "UK",
      industry: "Computing",
      annualRevenue: "1200000",
      noOfEmployees: "11-50",
      currency: await workspaceCurrency(),
      utmSource: "google",
      utmMedium: "cpc",
      utmCampaign: "launch",
      utmTerm: "engines",
      utmContent: "ad-1",
      apiKeyId: key.keyId,
      teamId: team.id,
      source: { name: "Website Form" },
    });
    expect(lead!.currency).not.toBe("EUR");
    expect(lead!.extraFields).toEqual({ favourite_engine: "analytical", newsletter: true });
  });

  test("multipart/form-data body with a plain number and country_code", async ({ request }) => {
    const { team, key } = await newTeamWithKey();
    const res = await request.post(CREATE_LEAD, {
      headers: authHeaders(key),
      multipart: { name: "Bob", phone: "07911 123456", country_code: "+44", organization: "Bob Ltd", campaign_page: "/pricing" },
    });
    expect(res.status()).toBe(201);
    const body = await res.json();
    expect(body.message).toBe("Lead created successfully");
    const lead = await findLead({ id: body.lead_id, teamId: team.id });
    expect(lead).toMatchObject({
      firstName: "Bob",
      lastName: null,
      organization: "Bob Ltd",
      phone: "+447911123456",
      source: { name: "API" },
    });
    expect(lead!.extraFields).toEqual({ campaign_page: "/pricing" });
  });

  test("x-www-form-urlencoded body, the team's default phone country, unknown source falls back to API", async ({ request }) => {
    const { team, key } = await newTeamWithKey({ defaultPhoneCountry: "DE" });
    const res = await request.post(CREATE_LEAD, {
      headers: authHeaders(key),
      form: { name: "Carla Schmidt", mobile_no: "01512 3456789", source: "No Such Source" },
    });
    expect(res.status()).toBe(201);
    const lead = await findLead({ id: (await res.json()).lead_id, teamId: team.id });
    expect(lead).toMatchObject({ mobileNo: "+4915123456789", mobileCountryCode: "+49", source: { name: "API" } });
  });

  test("invalid phone and mobile_no are skipped, named in the message, and the lead is still created", async ({ request }) => {
    const { team, key } = await newTeamWithKey();
    const res = await request.post(CREATE_LEAD, {
      headers: authHeaders(key),
      data: { name: "Dee", phone: "12345", mobile_no: "not a number" },
    });
    expect(res.status()).toBe(201);
    const body = await res.json();
    expect(body.message).toBe("Lead created successfully (skipped invalid fields: phone, mobile_no)");
    const lead = await findLead({ id: body.lead_id, teamId: team.id });
    expect(lead).toMatchObject({ phone: null, mobileNo: null });
  });

  test("only mobile_no skipped: the suffix names just that field", async ({ request }) => {
    const { key } = await newTeamWithKey();
    const res = await request.post(CREATE_LEAD, {
      headers: authHeaders(key),
      data: { name: "Eve", phone: "+1 415 555 2671", mobile_no: "+1 000" },
    });
    expect((await res.json()).message).toBe("Lead created successfully (skipped invalid fields: mobile_no)");
  });

  test("header names are case-insensitive", async ({ request }) => {
    const { key } = await newTeamWithKey();
    const res = await request.post(CREATE_LEAD, {
      headers: { "x-api-key": key.keyId, "X-API-SECRET": key.secret },
      data: { name: "Case" },
    });
    expect(res.status()).toBe(201);
  });

  test("100 concurrent creates get 100 distinct ids", async ({ request }) => {
    const { team, key } = await newTeamWithKey();
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => request.post(CREATE_LEAD, { headers: authHeaders(key), data: { name: `Lead ${i}` } })),
    );
    expect(responses.map((r) => r.status())).toEqual(Array(100).fill(201));
    const ids = await Promise.all(responses.map(async (r) => (await r.json()).lead_id as string));
    expect(new Set(ids).size).toBe(100);
    expect(await countLeads(team.id)).toBe(100);
    const seqs = ids.map((id) => Number(id.slice("CRM-LEAD-".length))).sort((a, b) => a - b);
    // Other tests create leads at the same time, so ours need not be consecutive, only distinct.
    expect(seqs[0]).toBeGreaterThan(0);
  });
});

type ErrorRow = {
  title: string;
  status: number;
  error: string | RegExp;
  message: string;
  send: (ctx: { keyId: string; secret: string }) => { headers: Record<string, string>; body?: string };
};

const json = (value: unknown) => JSON.stringify(value);
const JSON_TYPE = { "Content-Type": "application/json" };

// One row per error of spec section 7 and of the decisions in docs/api.md's error table.
const ERROR_ROWS: ErrorRow[] = [
  {
    title: "no X-API-Key",
    status: 401,
    error: "API key required",
    message: "Authentication failed",
    send: ({ secret }) => ({ headers: { ...JSON_TYPE, "X-API-Secret": secret }, body: json({ name: "x" }) }),
  },
  {
    title: "no X-API-Secret",
    status: 401,
    error: "API key required",
    message: "Authentication failed",
    send: ({ keyId }) => ({ headers: { ...JSON_TYPE, "X-API-Key": keyId }, body: json({ name: "x" }) }),
  },
  {
    title: "empty X-API-Key",
    status: 401,
    error: "API key required",
    message: "Authentication failed",
    send: ({ secret }) => ({ headers: { ...JSON_TYPE, "X-API-Key": " ", "X-API-Secret": secret }, body: json({ name: "x" }) }),
  },
  {
    title: "unknown key",
    status: 401,
    error: "Invalid API key",
    message: "Authentication failed",
    send: ({ secret }) => ({
      headers: { ...JSON_TYPE, "X-API-Key": "0123456789abcdef0123", "X-API-Secret": secret },
      body: json({ name: "x" }),
    }),
  },
  {
    title: "wrong secret",
    status: 401,
    error: "Invalid API key",
    message: "Authentication failed",
    send: ({ keyId, secret }) => ({
      headers: { ...JSON_TYPE, "X-API-Key": keyId, "X-API-Secret": `${secret}x` },
      body: json({ name: "x" }),
    }),
  },
  {
    title: "name missing",
    status: 422,
    error: "Name is required",
    message: "Validation failed",
    send: (k) => ({ headers: { ...JSON_TYPE, ...hdr(k) }, body: json({ email: "a@example.com" }) }),
  },
  {
    title: "name blank",
    status: 422,
    error: "Name is required",
    message: "Validation failed",
    send: (k) => ({ headers: { ...JSON_TYPE, ...hdr(k) }, body: json({ name: "   " }) }),
  },
  {
    title: "invalid email",
    status: 422,
    error: "Invalid email address: ada@@example",
    message: "Validation failed",
    send: (k) => ({ headers: { ...JSON_TYPE, ...hdr(k) }, body: json({ name: "Ada", email: "ada@@example" }) }),
  },
  {
    title: "object where a string is expected",
    status: 422,
    error: /^Field "organization" must be a single text value/,
    message: "Validation failed",
    send: (k) => ({ headers: { ...JSON_TYPE, ...hdr(k) }, body: json({ name: "Ada", organization: { a: 1 } }) }),
  },
  {
    title: "array as a known field",
    status: 422,
    error: /^Field "email" must be a single text value, not a list/,
    message: "Validation failed",
    send: (k) => ({ headers: { ...JSON_TYPE, ...hdr(k) }, body: json({ name: "Ada", email: ["a@example.com"] }) }),
  },
  {
    title: "too many extra fields",
    status: 422,
    error: /^Too many extra fields/,
    message: "Validation failed",
    send: (k) => ({
      headers: { ...JSON_TYPE, ...hdr(k) },
      body: json({ name: "Ada", ...Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}`, "v"])) }),
    }),
  },
  {
    title: "malformed JSON",
    status: 400,
    error: "The request body is not valid JSON",
    message: "Bad request",
    send: (k) => ({ headers: { ...JSON_TYPE, ...hdr(k) }, body: '{"name": "Ada"' }),
  },
  {
    title: "JSON that is not an object",
    status: 400,
    error: "The JSON body must be an object of fields",
    message: "Bad request",
    send: (k) => ({ headers: { ...JSON_TYPE, ...hdr(k) }, body: '["Ada"]' }),
  },
  {
    title: "unsupported content type",
    status: 415,
    error: /^Unsupported content type "text\/plain"/,
    message: "Unsupported media type",
    send: (k) => ({ headers: { "Content-Type": "text/plain", ...hdr(k) }, body: "name=Ada" }),
  },
  {
    title: "body over 64 KiB",
    status: 413,
    error: "Request body is larger than 64 KiB",
    message: "Payload too large",
    send: (k) => ({ headers: { ...JSON_TYPE, ...hdr(k) }, body: json({ name: "Ada", notes: "x".repeat(70 * 1024) }) }),
  },
];

function hdr({ keyId, secret }: { keyId: string; secret: string }) {
  return { "X-API-Key": keyId, "X-API-Secret": secret };
}

test.describe("errors: envelope, status, and no row written", () => {
  for (const row of ERROR_ROWS) {
    test(`${row.title} → ${row.status} ${row.message}`, async ({ request }) => {
      const { team, key } = await newTeamWithKey();
      const { headers, body } = row.send(key);
      // A Buffer is sent byte for byte (a string would be JSON-encoded by Playwright).
      const res = await request.post(CREATE_LEAD, { headers, data: body === undefined ? undefined : Buffer.from(body) });
      expect(res.status()).toBe(row.status);
      const envelope = await res.json();
      expect(Object.keys(envelope).sort()).toEqual(["error", "message", "success"]);
      expect(envelope.success).toBe(false);
      expect(envelope.message).toBe(row.message);
      if (typeof row.error === "string") expect(envelope.error).toBe(row.error);
      else expect(envelope.error).toMatch(row.error);
      expect(await countLeads(team.id)).toBe(0);
    });
  }

  test("a deleted key is refused at once with Invalid API key", async ({ request }) => {
    const { team, key } = await newTeamWithKey();
    const ok = await request.post(CREATE_LEAD, { headers: authHeaders(key), data: { name: "Before" } });
    expect(ok.status()).toBe(201);
    expect(await deleteApiKey({ keyId: key.keyId, teamId: team.id })).toBe(true);
    const res = await request.post(CREATE_LEAD, { headers: authHeaders(key), data: { name: "After" } });
    expect(res.status()).toBe(401);
    expect(await res.json()).toEqual({ success: false, error: "Invalid API key", message: "Authentication failed" });
    expect(await countLeads(team.id)).toBe(1);
  });

  test("a key whose team is gone answers Team ID required", async ({ request }) => {
    const { team, key } = await newTeamWithKey();
    await deleteTeam(team.id);
    const res = await request.post(CREATE_LEAD, { headers: authHeaders(key), data: { name: "Orphan" } });
    expect(res.status()).toBe(401);
    expect(await res.json()).toEqual({ success: false, error: "Team ID required", message: "Authentication failed" });
    expect(await db().lead.count({ where: { apiKeyId: key.keyId } })).toBe(0);
  });

  for (const method of ["GET", "PUT", "PATCH", "DELETE"] as const) {
    test(`${method} → 405 with the envelope and Allow: POST`, async ({ request }) => {
      const res = await request.fetch(CREATE_LEAD, { method });
      expect(res.status()).toBe(405);
      expect(res.headers()["allow"]).toBe("POST");
      expect(await res.json()).toEqual({ success: false, error: "Method not allowed; use POST", message: "Method not allowed" });
    });
  }
});

test("the OpenAPI document describes the endpoint from the handler's schema", async ({ request, baseURL }) => {
  const res = await request.get("/api/openapi.json");
  expect(res.status()).toBe(200);
  const doc = await res.json();
  expect(doc.openapi).toBe("3.1.0");
  // This deployment is the server (NEXTAUTH_URL), so generated clients call it.
  expect(doc.servers).toEqual([{ url: baseURL, description: "This deployment" }]);
  const post = doc.paths["/api/method/crm.api.leads.create_lead"].post;
  const schema = post.requestBody.content["application/json"].schema;
  expect(schema.required).toEqual(["name"]);
  expect(Object.keys(schema.properties)).toEqual(
    expect.arrayContaining(["name", "email", "phone", "mobile_no", "country_code", "source", "utm_content"]),
  );
  expect(Object.keys(post.responses).sort()).toEqual(["200", "201", "400", "401", "405", "413", "415", "422", "500", "503"]);
});
