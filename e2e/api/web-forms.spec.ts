import { expect, test } from "@playwright/test";
import Database from "better-sqlite3";
import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { CLI_ACTOR } from "../../lib/audit/audit-log";
import { db } from "../../lib/db/client";
import { VISITOR_PAGE_POLICY } from "../../lib/web-forms/visitor-page";
import { createWebForm } from "../../lib/web-forms/web-form-changes";
import { BASE_URL, CREATE_LEAD, newTeam } from "../support/fixtures";
import { readDatabase, startServer, type ServerProcess } from "../support/server-process";

// Issue 12 over real HTTP against `next start` (SQLite, and PostgreSQL in npm test's
// second pass): the public form endpoint, its challenge and widget files, CORS only for a
// form's origins (create_lead sends none), and the per-address limit on a server of its own.

const SITE = "https://www.example.com";

async function newForm(base = BASE_URL, teamId?: string) {
  const team = teamId ? { id: teamId } : await newTeam();
  const formId = await createWebForm({
    teamId: team.id,
    settings: { name: "Contact", allowedOrigins: [SITE], sourceId: null, successUrl: null, challenge: true },
    createdById: null,
    actor: CLI_ACTOR,
  });
  return { teamId: team.id, formId, url: `${base}/api/forms/${formId}` };
}

/** Fetches the form's challenge as the widget does, and solves it as a browser would. */
async function solvedPayload(url: string): Promise<string> {
  const response = await fetch(`${url}/challenge`, { headers: { Origin: SITE } });
  expect(response.status).toBe(200);
  expect(response.headers.get("access-control-allow-origin")).toBe(SITE);
  const challenge = (await response.json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
}

const postJson = (url: string, body: Record<string, string>, origin = SITE) =>
  fetch(url, {
    method: "POST",
    headers: { Origin: origin, Accept: "application/json", "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

test("a solved JSON submission creates the lead with CORS for its origin; a replay, a forgery and a foreign origin store nothing", async () => {
  const { teamId, formId, url } = await newForm();
  const altcha = await solvedPayload(url);
  const created = await postJson(url, { name: "Ada Lovelace", message: "Hello", altcha });
  expect(created.status).toBe(201);
  expect(created.headers.get("access-control-allow-origin")).toBe(SITE);
  const body = (await created.json()) as { success: boolean; lead_id: string; message: string };
  expect(body).toEqual({ success: true, lead_id: expect.stringMatching(/^CRM-LEAD-\d+$/), message: "Lead created successfully" });

  const replay = await postJson(url, { name: "Ada Again", altcha });
  expect(replay.status).toBe(403);
  expect(await replay.json()).toEqual({ success: false, error: "Spam check already used; submit the form again", message: "Forbidden" });
  expect(
    (await postJson(url, { name: "Forged", altcha: Buffer.from('{"challenge":{"parameters":{}},"solution":{}}').toString("base64") }))
      .status,
  ).toBe(403);
  const foreign = await postJson(url, { name: "Eve", altcha: await solvedPayload(url) }, "https://evil.example");
  expect(foreign.status).toBe(403);
  expect(foreign.headers.get("access-control-allow-origin")).toBeNull();

  const leads = await db().lead.findMany({ where: { teamId }, select: { id: true, formId: true, extraFields: true } });
  expect(leads).toEqual([{ id: body.lead_id, formId, extraFields: { message: "Hello" } }]);
});

test("a browser's form post is redirected (303); a refused one gets an HTML page, never JSON", async () => {
  const { url, formId } = await newForm();
  const form = (fields: Record<string, string>, origin = SITE) =>
    fetch(url, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields),
    });
  const sent = await form({ name: "Grace", altcha: await solvedPayload(url) });
  expect(sent.status).toBe(303);
  expect(sent.headers.get("location")).toBe(`${BASE_URL}/f/${formId}/thanks`);
  const missing = await form({ name: "Grace" });
  expect(missing.status).toBe(403);
  expect(missing.headers.get("content-type")).toMatch(/^text\/html/);
  // Its own policy: the page's inline style applies, nothing else may run or load.
  expect(missing.headers.get("content-security-policy")).toBe(VISITOR_PAGE_POLICY);
  expect(await missing.text()).toContain("Spam check missing");
  const spam = await form({ name: "Bot", _gotcha: "x" });
  expect(spam.status).toBe(303);
});

test("the preflight and CORS go to the form's origins only; create_lead sends no CORS headers", async () => {
  const { url } = await newForm();
  const preflight = (origin: string) =>
    fetch(url, {
      method: "OPTIONS",
      headers: { Origin: origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type" },
    });
  const allowed = await preflight(SITE);
  expect(allowed.status).toBe(204);
  expect(allowed.headers.get("access-control-allow-origin")).toBe(SITE);
  expect(allowed.headers.get("access-control-allow-methods")).toBe("POST");
  expect((await preflight("https://evil.example")).headers.get("access-control-allow-origin")).toBeNull();

  for (const method of ["OPTIONS", "POST"]) {
    const response = await fetch(`${BASE_URL}${CREATE_LEAD}`, {
      method,
      headers: { Origin: SITE, "Content-Type": "application/json" },
      body: method === "POST" ? "{}" : undefined,
    });
    expect(response.headers.get("access-control-allow-origin"), method).toBeNull();
  }
  expect(
    (await fetch(`${BASE_URL}/api/forms/form_AAAAAAAAAAAAAAAA`, { method: "POST", headers: { Accept: "application/json" } })).status,
  ).toBe(404);
});

test("the widget is served by this app from its npm package, to every origin", async () => {
  const script = await fetch(`${BASE_URL}/api/widget/altcha.js`);
  expect(script.status).toBe(200);
  expect(script.headers.get("content-type")).toMatch(/^text\/javascript/);
  expect(script.headers.get("access-control-allow-origin")).toBe("*");
  expect(await script.text()).toContain("altcha-widget");
  expect((await fetch(`${BASE_URL}/api/widget/package.json`)).status).toBe(404);
});

test.describe("limits", { tag: "@own-server" }, () => {
  test.describe.configure({ timeout: 180_000 });
  let server: ServerProcess;
  test.beforeAll(async () => {
    server = await startServer({ env: { FORM_SUBMISSIONS_PER_IP: "2", FORM_CHALLENGE_COST: "1" } });
  });
  test.afterAll(async () => server?.stop());

  test("an address over its limit gets 429 with Retry-After and stores nothing", async () => {
    const teamId = readDatabase(
      server.databaseFile,
      (database) => (database.prepare(`SELECT "id" FROM "Team" WHERE "slug" = 'demo'`).get() as { id: string }).id,
    );
    // The server's own SQLite file: the form is written straight into it.
    const formId = "form_limitLimitLimit1";
    const database = new Database(server.databaseFile);
    try {
      database
        .prepare(`INSERT INTO "WebForm" ("id", "teamId", "name", "allowedOrigins", "challenge") VALUES (?, ?, 'Limits', ?, 0)`)
        .run(formId, teamId, JSON.stringify([SITE]));
    } finally {
      database.close();
    }
    const url = `${server.url}/api/forms/${formId}`;
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await postJson(url, { name: `Visitor ${i}` })).status);
    expect(statuses).toEqual([201, 201, 429]);
    const limited = await postJson(url, { name: "Visitor 3" });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(((await limited.json()) as { error: string }).error).toMatch(/^Too many submissions from this address/);
    const count = readDatabase(
      server.databaseFile,
      (database) => (database.prepare(`SELECT COUNT(*) AS n FROM "Lead" WHERE "formId" = ?`).get(formId) as { n: number }).n,
    );
    expect(count).toBe(2);
  });
});
