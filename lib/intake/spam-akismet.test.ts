import assert from "node:assert/strict";
import { after, beforeEach, describe, mock, test } from "node:test";
import { startAkismetFake } from "../test-support/akismet-fake";

// Akismet at intake (issue 42 "Optional outside checks", docs/spam.md "Akismet (optional)"),
// on a real database, with AKISMET_API_KEY set and AKISMET_ENDPOINT pointing at a local fake
// that speaks the comment-check protocol: a submission the local checks keep and Akismet calls
// spam goes to the quarantine (reason akismet) with the kept lead's answer; a time-out or an
// error keeps the lead; a submission the local checks flag, a channel without the checks, and
// a key's or a connection's submission (their address is a server's, not the person's) never
// reach Akismet. Without the key: spam-akismet-off.test.ts.
const fake = await startAkismetFake({ apiKey: "intake-akismet-key", marker: "AKISMET-SAYS-SPAM" });
process.env.AKISMET_API_KEY = fake.apiKey;
process.env.AKISMET_ENDPOINT = fake.endpoint;
process.env.AKISMET_BLOG = "https://leads.example.com";
// Long enough for a loaded test machine to answer; the hang tests wait it out.
process.env.AKISMET_TIMEOUT_MS = "2000";
process.env.FORM_CHALLENGE_COST = "1";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { createApiKey } = await import("../api-keys/api-key-changes");
const { db } = await import("../db/client");
const { errorResponse } = await import("../http/envelope");
const { createLeadFromRequest } = await import("./create-lead-request");
const { answerFormPost } = await import("./web-form-endpoint");
const { newForm, nextIp, SITE } = await import("../web-forms/web-forms.fixtures");
const { makeTeam } = await import("../leads/lead-ownership.fixtures");

mock.method(process.stderr, "write", () => true);
after(() => fake.close());
beforeEach(() => {
  fake.mode = "answer";
  fake.requests.length = 0;
});

type Body = { success: boolean; lead_id: string; message: string };

const SPAM_MESSAGE = { name: "Sam Taylor", email: "sam@example.com", message: "Great offer AKISMET-SAYS-SPAM" };
const REAL = { name: "Ada Lovelace", email: "ada@example.com", message: "We would like a quote for 40 seats." };

let requests = 0;
async function send(key: { keyId: string; secret: string }, fields: Record<string, unknown>) {
  const request = new Request("http://localhost/api/method/crm.api.leads.create_lead", {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key.keyId, "x-api-secret": key.secret, "user-agent": "Zapier" },
    body: JSON.stringify(fields),
  });
  const context = { requestId: `akismet-${++requests}`, ip: "198.51.100.7" };
  const response = await createLeadFromRequest(request, context).catch((error: unknown) => errorResponse(error, context));
  return { status: response.status, body: (await response.json()) as Body };
}

async function keyOf(spamChecks: boolean) {
  const { team } = await makeTeam();
  const key = await createApiKey({ teamId: team.id, description: "Site" });
  await db().apiKey.update({ where: { id: key.keyId }, data: { spamChecks } });
  return { team, key };
}

const isLead = async (id: string) => (await db().lead.count({ where: { id } })) === 1;

/** A web form of a new team, its checks `spamChecks`, and a post to it from `ip` as a browser sends it. */
async function formOf(spamChecks = true) {
  const { team, formId } = await newForm({ challenge: false });
  if (!spamChecks) await db().webForm.update({ where: { id: formId }, data: { spamChecks } });
  const post = async (fields: Record<string, string>, ip = nextIp()) => {
    const response = await answerFormPost(
      new Request(`http://127.0.0.1/api/forms/${formId}`, {
        method: "POST",
        headers: {
          "x-forwarded-for": ip,
          origin: SITE,
          referer: `${SITE}/contact`,
          "user-agent": "Mozilla/5.0 (Test)",
          accept: "application/json",
        },
        body: new URLSearchParams(fields),
      }),
      formId,
    );
    return { status: response.status, body: (await response.json()) as Body };
  };
  return { team, formId, post };
}

describe("Akismet runs after the local checks when AKISMET_API_KEY is set", () => {
  test("a web form: Akismet says spam: 201 and the kept lead's envelope; in the quarantine with the reason akismet, not a lead", async () => {
    const { team, formId, post } = await formOf();
    // The reason's points are the team's threshold: Akismet's spam quarantines alone.
    await db().team.update({ where: { id: team.id }, data: { spamThreshold: 12 } });
    const kept = await post(REAL);
    const spam = await post(SPAM_MESSAGE, "198.51.100.7");
    assert.deepEqual([kept.status, spam.status], [201, 201]);
    assert.deepEqual(Object.keys(spam.body).sort(), Object.keys(kept.body).sort());
    assert.deepEqual([spam.body.success, spam.body.message], [kept.body.success, kept.body.message]);
    assert.equal(Number(spam.body.lead_id.slice(9)), Number(kept.body.lead_id.slice(9)) + 1);

    assert.ok(await isLead(kept.body.lead_id));
    assert.ok(!(await isLead(spam.body.lead_id)));
    const quarantined = await db().quarantinedLead.findUniqueOrThrow({ where: { id: spam.body.lead_id } });
    assert.deepEqual([quarantined.teamId, quarantined.formId], [team.id, formId]);
    assert.deepEqual(quarantined.reasons, [{ code: "akismet", field: "content", points: 12 }]);
    assert.equal(quarantined.score, 12);
    const log = await db().apiRequest.findFirstOrThrow({ where: { leadId: spam.body.lead_id } });
    assert.deepEqual([log.status, log.spam], [201, "akismet"]);

    assert.equal(fake.requests.length, 2, "each submission was checked");
    const { fields } = fake.requests[1]!;
    assert.deepEqual(
      [fields.api_key, fields.blog, fields.user_ip, fields.comment_type, fields.comment_author, fields.comment_author_email],
      [fake.apiKey, "https://leads.example.com", "198.51.100.7", "contact-form", "Sam Taylor", "sam@example.com"],
    );
    assert.equal(fields.comment_content, SPAM_MESSAGE.message);
    assert.deepEqual([fields.user_agent, fields.referrer], ["Mozilla/5.0 (Test)", `${SITE}/contact`], "the visitor's browser");
  });

  test("a key's submission never reaches Akismet: its address is the posting server's, not the person's", async () => {
    const { key } = await keyOf(true);
    const answer = await send(key, SPAM_MESSAGE);
    assert.equal(answer.status, 201);
    assert.ok(await isLead(answer.body.lead_id));
    assert.equal(fake.requests.length, 0);
  });

  for (const mode of ["hang", "error"] as const) {
    test(`Akismet ${mode === "hang" ? "does not answer within the budget" : "answers 500"}: the lead is kept (201, in the list)`, async () => {
      const { team, post } = await formOf();
      fake.mode = mode;
      const answer = await post(SPAM_MESSAGE);
      assert.equal(answer.status, 201);
      assert.ok(await isLead(answer.body.lead_id), "the local verdict stands: a lead");
      assert.equal(await db().quarantinedLead.count({ where: { teamId: team.id } }), 0);
      assert.equal(fake.requests.length, 1);
    });
  }

  test("a submission the local checks quarantine never reaches Akismet", async () => {
    const { post } = await formOf();
    const spam = await post({ name: "Cheap SEO http://seo-offer.example", email: "x@mailinator.com", message: "AKISMET-SAYS-SPAM" });
    const quarantined = await db().quarantinedLead.findUniqueOrThrow({ where: { id: spam.body.lead_id } });
    assert.ok(!(quarantined.reasons as { code: string }[]).some((reason) => reason.code === "akismet"));
    assert.equal(fake.requests.length, 0);
  });

  test("a channel without the checks never reaches Akismet", async () => {
    const { post } = await formOf(false);
    const answer = await post(SPAM_MESSAGE);
    assert.ok(await isLead(answer.body.lead_id));
    assert.equal(fake.requests.length, 0);
  });

  test("a sender on the team's allow list never reaches Akismet", async () => {
    const { team, post } = await formOf();
    const { addSpamListEntries } = await import("../spam/spam-list-store");
    await addSpamListEntries(db(), team.id, [{ list: "allow_email", value: "sam@example.com" }], null);
    const answer = await post(SPAM_MESSAGE);
    assert.ok(await isLead(answer.body.lead_id));
    assert.equal(fake.requests.length, 0);
  });
});
