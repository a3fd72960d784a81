import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";

// Every lead keeps the submission that made it (issue 41, step 1; docs/leads.md
// "Submissions"): through each channel, on a real database (SQLite and PostgreSQL), a new
// lead has exactly one submission, with its channel, what received it, its time, the fields
// as the channel parsed them and the fields it skipped; a refused submission (a replayed
// proof of work, a builder's repeated delivery) leaves none. The writer's own rollbacks (a
// lost Idempotency-Key claim in a group commit): lib/leads/lead-submissions.test.ts.
process.env.FORM_CHALLENGE_COST = "1";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { createApiKey } = await import("../api-keys/api-key-changes");
const { db } = await import("../db/client");
const { errorResponse } = await import("../http/envelope");
const { createLeadFromRequest } = await import("./create-lead-request");
const { newForm, post, solved } = await import("../web-forms/web-forms.fixtures");
const { FULL_NAME, connect, deliver, tallyBody, tallySignature } = await import("./receive-delivery.fixtures");
const { lead, makeTeam, run, upload } = await import("../imports/lead-import.fixtures");

// Refusals write JSON log lines on stderr; keep the output clean.
mock.method(process.stderr, "write", () => true);

const submissionsOf = (leadId: string) => db().leadSubmission.findMany({ where: { leadId }, orderBy: { createdAt: "asc" } });

describe("a new lead keeps the submission that made it, one per channel", () => {
  test("create_lead: channel api, the key, the fields as parsed (a skipped phone as typed), the extra fields", async () => {
    const team = await makeTeam();
    const key = await createApiKey({ teamId: team.id, description: "Site" });
    const request = new Request("http://localhost/api/method/crm.api.leads.create_lead", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key.keyId, "x-api-secret": key.secret },
      body: JSON.stringify({
        name: "Ada Lovelace",
        email: "ada@example.com",
        phone: "not a number",
        mobile_no: "+44 7911 123456",
        utm_source: "newsletter",
        interest: "engines",
      }),
    });
    const context = { requestId: "submissions-1", ip: "198.51.100.1" };
    const response = await createLeadFromRequest(request, context).catch((error: unknown) => errorResponse(error, context));
    assert.equal(response.status, 201);
    const { lead_id: leadId, message } = (await response.json()) as { lead_id: string; message: string };
    assert.equal(message, "Lead created successfully (skipped invalid fields: phone)");
    const lead = await db().lead.findUniqueOrThrow({ where: { id: leadId } });
    const [submission, ...more] = await submissionsOf(leadId);
    assert.equal(more.length, 0);
    assert.deepEqual(submission, {
      id: `sub_${leadId}`,
      leadId,
      teamId: team.id,
      channel: "api",
      apiKeyId: key.keyId,
      formId: null,
      connectionId: null,
      importId: null,
      fields: {
        first_name: "Ada",
        last_name: "Lovelace",
        email: "ada@example.com",
        phone: "not a number",
        mobile_no: "+447911123456",
        organization: "Ada Lovelace",
        utm_source: "newsletter",
        extra_fields: { interest: "engines" },
      },
      skipped: ["phone"],
      createdAt: lead.createdAt,
    });
  });

  test("a web form: channel form, the form; a replayed proof of work is refused and leaves no submission", async () => {
    const { team, formId } = await newForm({ challenge: true });
    const altcha = await solved(formId);
    const first = await post(formId, { name: "Grace Hopper", email: "grace@example.com", message: "Hello", altcha });
    assert.equal(first.status, 201);
    const { lead_id: leadId } = (await first.json()) as { lead_id: string };
    const [submission, ...more] = await submissionsOf(leadId);
    assert.equal(more.length, 0);
    assert.deepEqual(
      { ...submission, createdAt: null },
      {
        id: `sub_${leadId}`,
        leadId,
        teamId: team.id,
        channel: "form",
        apiKeyId: null,
        formId,
        connectionId: null,
        importId: null,
        fields: {
          first_name: "Grace",
          last_name: "Hopper",
          email: "grace@example.com",
          organization: "Grace Hopper",
          extra_fields: { message: "Hello" },
        },
        skipped: [],
        createdAt: null,
      },
    );
    const replayed = await post(formId, { name: "Grace Again", altcha });
    assert.equal(replayed.status, 403);
    assert.equal(await db().lead.count({ where: { teamId: team.id } }), 1);
    assert.equal(await db().leadSubmission.count({ where: { teamId: team.id } }), 1);
  });

  test("a connection: channel connection, the connection; the builder's repeats of a submission, at once, leave one", async () => {
    const c = await connect("tally");
    const body = tallyBody([FULL_NAME], "subs1");
    const headers = { "tally-signature": tallySignature(body, c.signingSecret!) };
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(c.token, body, headers)));
    assert.ok(answers.every((answer) => answer.status === 201 || answer.status === 200));
    const [lead, ...others] = await db().lead.findMany({ where: { teamId: c.team.id } });
    assert.equal(others.length, 0);
    const [submission, ...more] = await submissionsOf(lead!.id);
    assert.equal(more.length, 0);
    assert.equal(await db().leadSubmission.count({ where: { teamId: c.team.id } }), 1);
    assert.deepEqual(
      [submission!.channel, submission!.connectionId, submission!.apiKeyId, submission!.formId],
      ["connection", c.id, null, null],
    );
    const fields = submission!.fields as Record<string, unknown>;
    assert.deepEqual(
      [fields.first_name, fields.last_name, fields.email, fields.phone, fields.utm_campaign],
      ["Ada", "Lovelace", "alice@example.com", "+32491223344", "newsletter"],
    );
    assert.equal((fields.extra_fields as Record<string, unknown>).Text, "Hello");
  });

  test("an import: channel import, the import, each row's fields, at the batch's time", async () => {
    const team = await makeTeam();
    const { record } = await upload(
      team.id,
      "Name,Email,Phone,Website,Budget\nAda Lovelace,ada@example.com,07911 123456,,high\nAlan Turing,,123,nope,\n",
    );
    const done = await run(record);
    assert.equal(done.createdCount, 2);
    const leads = await db().lead.findMany({ where: { teamId: team.id }, orderBy: { seq: "asc" } });
    const submissions = await db().leadSubmission.findMany({ where: { teamId: team.id }, orderBy: { id: "asc" } });
    assert.deepEqual(
      submissions.map((s) => [s.id, s.leadId, s.channel, s.importId, s.apiKeyId, s.fields, s.skipped, s.createdAt.getTime()]),
      [
        [
          `sub_${leads[0]!.id}`,
          leads[0]!.id,
          "import",
          record.id,
          null,
          {
            first_name: "Ada",
            last_name: "Lovelace",
            email: "ada@example.com",
            phone: "+447911123456",
            organization: "Ada Lovelace",
            extra_fields: { Budget: "high" },
          },
          [],
          leads[0]!.createdAt.getTime(),
        ],
        [
          `sub_${leads[1]!.id}`,
          leads[1]!.id,
          "import",
          record.id,
          null,
          { first_name: "Alan", last_name: "Turing", phone: "123", organization: "Alan Turing", website: "nope" },
          ["phone", "website"],
          leads[1]!.createdAt.getTime(),
        ],
      ],
    );
  });

  test("an import's fill: each row that filled a lead adds a submission to it (a stored lead, or one of its own batch); a row that filled nothing adds none", async () => {
    const team = await makeTeam();
    const ada = await lead(team.id, { name: "Ada Lovelace", email: "ada@example.com" });
    const { record } = await upload(
      team.id,
      [
        "Name,Email,Job title",
        "Ada Lovelace,ada@example.com,Countess",
        "Ada Lovelace,ADA@example.com,Other",
        "Grace Hopper,grace@example.com,",
        "Grace Hopper,grace@example.com,Admiral",
      ].join("\n"),
    );
    const done = await run(record, { duplicates: "update" });
    assert.deepEqual([done.createdCount, done.updatedCount, done.skippedCount], [1, 2, 1]);
    const grace = await db().lead.findFirstOrThrow({ where: { teamId: team.id, email: "grace@example.com" } });
    assert.equal(grace.jobTitle, "Admiral");
    // In the order they came: a batch's rows share its time, the lead's own row first.
    const story = async (leadId: string) =>
      (await db().leadSubmission.findMany({ where: { leadId }, orderBy: { createdAt: "asc" } }))
        .sort(
          (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || Number(b.id === `sub_${leadId}`) - Number(a.id === `sub_${leadId}`),
        )
        .map((s) => ({
          first: s.id === `sub_${leadId}`,
          channel: s.channel,
          importId: s.importId,
          job: (s.fields as Record<string, unknown>).job_title ?? null,
        }));
    assert.deepEqual(await story(ada), [
      { first: true, channel: "api", importId: null, job: null },
      { first: false, channel: "import", importId: record.id, job: "Countess" },
    ]);
    assert.deepEqual(await story(grace.id), [
      { first: true, channel: "import", importId: record.id, job: null },
      { first: false, channel: "import", importId: record.id, job: "Admiral" },
    ]);
  });
});
