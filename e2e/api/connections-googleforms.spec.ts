import { expect, test } from "@playwright/test";
import { EXAMPLE_FORM, scriptRequest } from "../../lib/connections/fixtures/apps-script-fakes";
import { googleFormsScript } from "../../lib/connections/googleforms-script";
import { db } from "../../lib/db/client";
import { BASE_URL, newTeam } from "../support/fixtures";
import { cli, json } from "../../scripts/cli.fixtures";

// Google Forms over real HTTP against `next start` (docs/connections.md "Google Forms"): a
// connection made with the operator CLI; the Apps Script we give teams, generated for its
// URL and run in node:vm against fakes of Apps Script's objects (lib/connections/fixtures/
// apps-script-fakes.ts), makes its one request; that request (URL, content type, body
// bytes) is sent here as UrlFetchApp would send it. The lead field by field, the same
// response again (200, the same lead), a body that is not the script's (422, nothing stored).

type Created = { id: string; url: string; signing_secret: string | null };

// UrlFetchApp's default user agent (https://developers.google.com/apps-script/reference/url-fetch).
const APPS_SCRIPT_AGENT = "Mozilla/5.0 (compatible; Google-Apps-Script; beanserver; +https://script.google.com; id: SCRIPT_ID)";

const post = (url: string, body: string, contentType = "application/json") =>
  fetch(url, { method: "POST", headers: { "Content-Type": contentType, "User-Agent": APPS_SCRIPT_AGENT }, body });

test("a Google Forms connection made with the CLI: the Apps Script's request becomes the lead, once; another body stores nothing", async () => {
  const team = await newTeam();
  const created = json(await cli("connections", "create", "--team", team.slug, "--builder", "googleforms", "--json")) as Created;
  expect(created.url).toMatch(new RegExp(`^${BASE_URL}/api/connections/c_[A-Za-z0-9_-]{22}$`));
  // Google Forms cannot sign: the URL is the credential.
  expect(created.signing_secret).toBeNull();

  const responseId = `2_ABaOnuc-e2e-${team.slug}`;
  const request = scriptRequest(googleFormsScript(created.url), { ...EXAMPLE_FORM, responseId });
  expect(request.url).toBe(created.url);
  expect(request.contentType).toBe("application/json");

  const first = await post(request.url, request.body, request.contentType);
  expect(first.status).toBe(201);
  const answer = (await first.json()) as { success: boolean; lead_id: string; message: string };
  expect(answer).toEqual({ success: true, lead_id: expect.stringMatching(/^CRM-LEAD-\d+$/), message: "Lead created successfully" });

  const lead = await db().lead.findUniqueOrThrow({ where: { id: answer.lead_id } });
  expect(lead).toMatchObject({
    teamId: team.id,
    connectionId: created.id,
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ada@example.com",
    phone: "+32491223344",
    organization: "Analytical Engines Ltd",
  });
  expect(lead.extraFields).toEqual({
    "How can we help?": "Please call me back\nabout the engine.",
    "Preferred contact": "Phone",
    Interests: ["Engines", "Looms"],
    "Best day to call": "2025-03-20",
    "How likely are you to buy?": "4",
    "Rate our service": ["Speed: Fast"],
    "When can we call?": ["Monday: Morning, Evening"],
  });

  // The same response posted again (a second trigger, a re-run by hand): the same lead.
  const again = await post(request.url, request.body, request.contentType);
  expect(again.status).toBe(200);
  expect(((await again.json()) as { lead_id: string }).lead_id).toBe(answer.lead_id);

  // Not the script's body: refused and kept in the log, no lead.
  const other = JSON.stringify({ name: "Grace Hopper", email: "grace@example.com" });
  const refused = await post(created.url, other);
  expect(refused.status).toBe(422);
  expect(await db().lead.count({ where: { teamId: team.id } })).toBe(1);

  const log = await db().connectionDelivery.findMany({ where: { connectionId: created.id }, orderBy: { createdAt: "asc" } });
  expect(log.map((row) => [row.outcome, row.status, row.attempts, row.submissionId, row.payload])).toEqual([
    ["created", 201, 2, responseId, null],
    ["refused", 422, 1, null, other],
  ]);
});
