import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";

// A Fillout delivery to a connection below the HTTP server (lib/intake/receive-delivery.ts,
// docs/connections.md "Fillout"), on a real database: Fillout's documented example submission
// (lib/connections/fixtures/fillout-example.ts) posted as JSON in the { submission } envelope
// and bare; the lead it makes field by field; Fillout posting the same submission again (one
// lead); a body that is not a submission (422, kept in the log, nothing stored). Fillout does
// not sign: the URL is the credential, no header is checked.
process.env.CONNECTION_DELIVERIES_PER_CONNECTION = "100000";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { filloutEnvelope, filloutExample } = await import("../connections/fixtures/fillout-example");
const { connect, deliver, leadsOf, logOf } = await import("./receive-delivery.fixtures");

// Refusals write JSON log lines on stderr; keep the output clean.
mock.method(process.stderr, "write", () => true);

/** A team with a Fillout connection: a URL and no secret. */
const connectFillout = () => connect("fillout");

/** The documented example in the envelope, with this submission id, as compact JSON. */
const envelopeBody = (submissionId = "abc") => JSON.stringify(filloutEnvelope((submission) => Object.assign(submission, { submissionId })));

describe("POST /api/connections/<token> (Fillout)", () => {
  test("a Fillout connection has no signing secret: the URL is the credential", async () => {
    const c = await connectFillout();
    assert.equal(c.signingSecret, null);
  });

  test("Fillout's documented example in the { submission } envelope: 201 and the lead, field by field", async () => {
    const c = await connectFillout();
    const response = await deliver(c.token, envelopeBody());
    assert.equal(response.status, 201);
    const answer = await response.json();
    assert.equal(answer.success, true);
    const [lead, ...others] = await leadsOf(c.team.id);
    assert.equal(others.length, 0);
    assert.equal(lead!.id, answer.lead_id);
    assert.equal(lead!.connectionId, c.id);
    // The booking's full name and email (the example's one question, "What's your name?", names no lead field).
    assert.equal(lead!.firstName, "John");
    assert.equal(lead!.lastName, "Smith");
    assert.equal(lead!.email, "john@smith.com");
    assert.deepEqual(lead!.extraFields, {
      "What's your name?": "Timmy",
      "30 min meeting: timezone": "Europe/London",
      "30 min meeting: eventStartTime": "2024-05-20T09:00:00.000Z",
      "30 min meeting: eventEndTime": "2024-05-20T09:30:00.000Z",
      "30 min meeting: eventId": "du5ckkaeacd5dlj16d7ajepp8g",
      "30 min meeting: eventUrl":
        "https://www.google.com/calendar/event?eid=ZHU1Y2trYWVhY2Q1ZGxqMTZkN2FqZXBwOGcgYXJjaGllQGZpbGxvdXQuY29t&authuser=john%40smith.com",
      "30 min meeting: rescheduleOrCancelUrl": "https://schedule.fillout.com/event/3EhDXDtvEtus?t=Cq52ZAGUnDpnnlatjDKD1yjtGCFNGajY",
      "email (2)": "example@example.com",
      price: "12.50",
      "Quiz score": 5,
      "Quiz maximum score": 10,
    });
    const [row] = await logOf(c.id);
    assert.deepEqual([row!.outcome, row!.status, row!.leadId, row!.submissionId, row!.payload], ["created", 201, lead!.id, "abc", null]);
  });

  test("the bare submission, with typed questions and a UTM parameter added: the lead's fields from the types", async () => {
    const c = await connectFillout();
    const submission = filloutExample() as { questions: unknown[]; urlParameters: unknown[]; submissionId: string };
    submission.submissionId = "bare-1";
    submission.questions.push(
      { id: "q1", name: "Work email", type: "EmailInput", value: "timmy@example.com" },
      { id: "q2", name: "Phone", type: "PhoneNumber", value: "+32 491 22 33 44" },
    );
    submission.urlParameters.push({ id: "utm_source", name: "utm_source", value: "newsletter" });
    const response = await deliver(c.token, JSON.stringify(submission));
    assert.equal(response.status, 201);
    const [lead] = await leadsOf(c.team.id);
    assert.equal(lead!.email, "timmy@example.com");
    assert.equal(lead!.phone, "+32491223344");
    assert.equal(lead!.utmSource, "newsletter");
    assert.equal(lead!.firstName, "John");
  });

  test("Fillout posting the same submission again answers the same lead (200) and creates nothing", async () => {
    const c = await connectFillout();
    const body = envelopeBody("retry-1");
    const first = await deliver(c.token, body);
    assert.equal(first.status, 201);
    const again = await deliver(c.token, body);
    assert.equal(again.status, 200);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    assert.equal((await again.json()).lead_id, (await first.json()).lead_id);
    assert.equal((await leadsOf(c.team.id)).length, 1);
    const [row, ...more] = await logOf(c.id);
    assert.equal(more.length, 0);
    assert.deepEqual([row!.submissionId, row!.attempts], ["retry-1", 2]);
  });

  test("a body without questions (not a Fillout submission): 422, kept in the log to read, nothing stored", async () => {
    const c = await connectFillout();
    const body = JSON.stringify({ formId: "foAdHjd1Duus", submission: { submissionId: "abc" } });
    const response = await deliver(c.token, body);
    assert.equal(response.status, 422);
    assert.deepEqual(await response.json(), {
      success: false,
      error: "A Fillout delivery has a submission with a questions list (or the questions list at the top)",
      message: "Validation failed",
    });
    assert.equal((await leadsOf(c.team.id)).length, 0);
    const [row] = await logOf(c.id);
    assert.deepEqual([row!.outcome, row!.status, row!.payload], ["refused", 422, body]);
  });
});
