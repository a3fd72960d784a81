import { createHmac } from "node:crypto";
import { expect, test } from "@playwright/test";
import { tallyExample } from "../../lib/connections/fixtures/tally-example";
import { findLead } from "../../lib/leads/lead-store";
import { cli, json } from "../../scripts/cli.fixtures";
import { BASE_URL, CREATE_LEAD, authHeaders, newTeam, newTeamWithKey } from "../support/fixtures";

// create_lead and a form builder's delivery are served beside Next's router
// (lib/http/direct-routes.ts) once Next has loaded their route; a request with a query string
// still goes through Next. Every request below is sent both ways, and the two answers must be
// the same but for what differs by nature (the lead's id, the request id, the date, how the
// body is framed).

const ALWAYS_DIFFERENT = new Set(["date", "x-request-id", "content-length", "transfer-encoding", "connection", "keep-alive"]);

// What Next adds and the direct route does not (docs/performance.md "The intake beside Next's
// router"): gzip of every answer when the client accepts it (an 80-byte answer comes out
// larger), and a Vary header for its page router's headers.
const NEXT_ONLY = new Set(["content-encoding", "vary"]);

type Answer = { status: number; headers: Record<string, string>; body: string };

async function answerOf(response: Response, ignored: Set<string> = new Set()): Promise<Answer> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!ALWAYS_DIFFERENT.has(name) && !ignored.has(name)) headers[name] = value;
  });
  const body = (await response.text()).replace(/CRM-LEAD-\d+/g, "CRM-LEAD-n");
  return { status: response.status, headers, body };
}

type Case = { name: string; send: (url: string, variant: string) => Promise<Response> };

function cases(auth: Record<string, string>): Case[] {
  const json =
    (body: unknown, headers: Record<string, string> = auth) =>
    (url: string) =>
      fetch(url, { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return [
    {
      name: "JSON, created with extra fields",
      send: (url, variant) =>
        json({ name: `Parity ${variant}`, email: `parity-${variant}@example.com`, campaign_note: "spring", newsletter: true })(url),
    },
    {
      name: "multipart, created",
      send: (url, variant) => {
        const form = new FormData();
        form.set("name", `Multipart ${variant}`);
        form.append("interests[]", "a");
        form.append("interests[]", "b");
        return fetch(url, { method: "POST", headers: auth, body: form });
      },
    },
    {
      name: "url-encoded, created",
      send: (url, variant) =>
        fetch(url, {
          method: "POST",
          headers: { ...auth, "Content-Type": "application/x-www-form-urlencoded" },
          body: `name=Encoded+${variant}&utm_source=google`,
        }),
    },
    {
      name: "skipped invalid fields",
      send: (url, variant) => json({ name: `Skipped ${variant}`, phone: "12", website: "not a site" })(url),
    },
    { name: "no key", send: (url) => json({ name: "No key" }, {})(url) },
    { name: "wrong secret", send: (url) => json({ name: "Wrong" }, { ...auth, "X-API-Secret": "wrong-secret" })(url) },
    { name: "name missing", send: (url) => json({ email: "nobody@example.com" })(url) },
    { name: "invalid email", send: (url) => json({ name: "Bad Email", email: "not-an-email" })(url) },
    {
      name: "known field repeated",
      send: (url) =>
        fetch(url, { method: "POST", headers: { ...auth, "Content-Type": "application/x-www-form-urlencoded" }, body: "name=A&name=B" }),
    },
    {
      name: "invalid JSON",
      send: (url) => fetch(url, { method: "POST", headers: { ...auth, "Content-Type": "application/json" }, body: "{" }),
    },
    {
      name: "unsupported content type",
      send: (url) => fetch(url, { method: "POST", headers: { ...auth, "Content-Type": "text/csv" }, body: "name\nA" }),
    },
    {
      name: "body too large",
      send: (url) =>
        fetch(url, {
          method: "POST",
          headers: { ...auth, "Content-Type": "application/json" },
          body: JSON.stringify({ name: "Big", note: "x".repeat(2_000_000) }),
        }),
    },
    {
      name: "Idempotency-Key, then its replay",
      send: async (url, variant) => {
        const headers = { ...auth, "Content-Type": "application/json", "Idempotency-Key": `parity-${variant}-${Date.now()}` };
        const body = JSON.stringify({ name: `Once ${variant}` });
        await fetch(url, { method: "POST", headers, body });
        return fetch(url, { method: "POST", headers, body });
      },
    },
  ];
}

/** Sends each case through Next (`?via=next`) and beside it, and requires the same answers. */
async function expectSameAnswers(path: string, all: Case[]): Promise<void> {
  for (const { name, send } of all) {
    const nextResponse = await send(`${BASE_URL}${path}?via=next`, "next");
    const directResponse = await send(`${BASE_URL}${path}`, "direct");
    // Which path answered: Next's Vary names its router's headers; the direct route sends none.
    expect(nextResponse.headers.get("vary"), name).toContain("next-router-state-tree");
    expect(directResponse.headers.get("vary"), name).toBeNull();
    expect(await answerOf(directResponse), name).toEqual(await answerOf(nextResponse, NEXT_ONLY));
  }
}

test("every create_lead answer is the same beside Next's router as through it", async () => {
  const { key } = await newTeamWithKey();
  const auth = authHeaders(key);
  // The route's first request is Next's (it loads the module, which registers the direct route).
  const first = await fetch(`${BASE_URL}${CREATE_LEAD}?via=next`, {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Warm" }),
  });
  expect(first.status).toBe(201);
  await expectSameAnswers(CREATE_LEAD, cases(auth));
});

test("every answer to a form builder's delivery is the same beside Next's router as through it", async () => {
  const team = await newTeam();
  const created = json(await cli("connections", "create", "--team", team.slug, "--builder", "tally", "--repeats", "new", "--json")) as {
    url: string;
    signing_secret: string;
  };
  const path = new URL(created.url).pathname;
  // Tally's documented example with a full name added (without one a delivery is kept as "needs mapping").
  const example = tallyExample() as { data: { fields: unknown[] } };
  const fullName = { key: "question_name", label: "Full name", type: "INPUT_TEXT", value: "Ada Lovelace" };
  const body = (responseId: string) =>
    JSON.stringify({
      ...example,
      data: { ...example.data, responseId, submissionId: responseId, fields: [...example.data.fields, fullName] },
    });
  const sign = (text: string) => createHmac("sha256", created.signing_secret).update(text).digest("base64");
  const deliver = (url: string, text: string, headers: Record<string, string>) =>
    fetch(url, { method: "POST", headers: { "Content-Type": "application/json", "User-Agent": "Tally Webhooks", ...headers }, body: text });
  const first = await deliver(`${BASE_URL}${path}?via=next`, body("warm"), { "Tally-Signature": sign(body("warm")) });
  expect(first.status).toBe(201);
  await expectSameAnswers(path, [
    {
      name: "signed delivery",
      send: (url, variant) => deliver(url, body(`signed-${variant}`), { "Tally-Signature": sign(body(`signed-${variant}`)) }),
    },
    {
      name: "the builder's retry of a delivery",
      send: async (url, variant) => {
        const text = body(`retried-${variant}`);
        await deliver(url, text, { "Tally-Signature": sign(text) });
        return deliver(url, text, { "Tally-Signature": sign(text) });
      },
    },
    {
      name: "wrong signature",
      send: (url, variant) => deliver(url, body(`wrong-${variant}`), { "Tally-Signature": sign("something else") }),
    },
    { name: "no signature", send: (url, variant) => deliver(url, body(`unsigned-${variant}`), {}) },
    { name: "not JSON", send: (url) => deliver(url, "{", { "Tally-Signature": sign("{") }) },
  ]);
  // A URL no connection has (its token well-formed) and one that cannot be a token.
  await expectSameAnswers("/api/connections/c_AAAAAAAAAAAAAAAAAAAAAA", [
    { name: "unknown URL", send: (url) => deliver(url, body("x"), {}) },
  ]);
  await expectSameAnswers("/api/connections/not-a-token", [{ name: "malformed URL", send: (url) => deliver(url, body("x"), {}) }]);
});

test("a lead created beside Next's router is stored like one created through it", async () => {
  const { team, key } = await newTeamWithKey();
  const stored: NonNullable<Awaited<ReturnType<typeof findLead>>>[] = [];
  for (const url of [`${BASE_URL}${CREATE_LEAD}?via=next`, `${BASE_URL}${CREATE_LEAD}`]) {
    const response = await fetch(url, {
      method: "POST",
      headers: { ...authHeaders(key), "Content-Type": "application/json" },
      // The same body both ways: the key keeps a repeat submission as a new lead (its default).
      body: JSON.stringify({
        name: "Grace Hopper",
        email: "grace@example.com",
        phone: "+44 7911 123456",
        utm_source: "news",
        extra_one: "kept",
      }),
    });
    expect(response.status).toBe(201);
    const { lead_id } = (await response.json()) as { lead_id: string };
    const lead = await findLead({ id: lead_id, teamId: team.id });
    expect(lead).not.toBeNull();
    stored.push(lead!);
  }
  // Everything but what makes each lead itself (its id, number, times).
  const comparable = ({ id: _id, seq: _seq, createdAt: _created, ...rest }: (typeof stored)[number]) => rest;
  expect(comparable(stored[1]!)).toEqual(comparable(stored[0]!));
});
