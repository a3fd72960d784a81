import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";

// A Jotform delivery to a connection below the HTTP server (lib/intake/receive-delivery.ts,
// docs/connections.md "Jotform"), on a real database: a real Jotform delivery (Zulip's
// fixture, see lib/connections/fixtures/jotform-example.ts) posted as Jotform posts it,
// multipart/form-data with its boundary; the lead it makes field by field; Jotform posting the
// same submission again (one lead); a form post that is not Jotform's webhook (422, kept in the
// log, nothing stored); a delivery without a name kept whole, then replayed from the log once
// the mapping names its question. Jotform cannot sign: the URL is the credential, no header is checked.
process.env.CONNECTION_DELIVERIES_PER_CONNECTION = "100000";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { JOTFORM_CONTENT_TYPE, jotformExampleBody, jotformFields, jotformMultipart } =
  await import("../connections/fixtures/jotform-example");
const { replayDelivery } = await import("./receive-delivery");
const { changes, CLI_ACTOR, connect, deliver, leadsOf, logOf } = await import("./receive-delivery.fixtures");

// Refusals write JSON log lines on stderr; keep the output clean.
mock.method(process.stderr, "write", () => true);

const MULTIPART = { "content-type": JOTFORM_CONTENT_TYPE, "user-agent": "JotForm" };

/** A team with a Jotform connection: a URL and no secret. */
const connectJotform = () => connect("jotform");

/** The example with an email and a phone question added, under its own submission id. */
const withContact = (submissionId: string) =>
  jotformMultipart(
    jotformFields((answers) => Object.assign(answers, { q36_email: "niloth@example.com", q37_phoneNumber: { full: "+32 491 22 33 44" } }), {
      submissionID: submissionId,
    }),
  );

describe("POST /api/connections/<token> (Jotform)", () => {
  test("a Jotform connection has no signing secret: the URL is the credential", async () => {
    const c = await connectJotform();
    assert.equal(c.signingSecret, null);
  });

  test("the delivery exactly as Jotform sent it: 201 and the lead, field by field", async () => {
    const c = await connectJotform();
    const response = await deliver(c.token, jotformExampleBody(), MULTIPART);
    assert.equal(response.status, 201);
    const answer = await response.json();
    assert.equal(answer.success, true);
    const [lead, ...others] = await leadsOf(c.team.id);
    assert.equal(others.length, 0);
    assert.equal(lead!.id, answer.lead_id);
    assert.equal(lead!.connectionId, c.id);
    assert.equal(lead!.firstName, "Niloth");
    assert.equal(lead!.lastName, "P");
    assert.equal(lead!.email, null);
    assert.deepEqual(lead!.extraFields, {
      "Type of": "Online Tutoring",
      "Subject for": "Math",
      Grade: "12",
      "Prior tutoring": "No",
      Appointment: ["implementation: new", "duration: 60", "timezone: Asia/Calcutta (GMT+06:30)"],
      Table: ['colIds: ["0","1","2","3"]', 'rowIds: ["0","1","2","3"]'],
      "Identity proof": [
        "https://www.jotform.com/uploads/UserNiloth/243231271343446/6111139644845227683/Student_ID_%21_%24%26%27%28%29_%2C-.%3B%3D%40%5B%5D%5E_%60%7B%7D~%20.png",
        "https://www.jotform.com/uploads/UserNiloth/243231271343446/6111139644845227684/Driving.license.png",
      ],
      Reports: ["https://www.jotform.com/uploads/UserNiloth/243231271343446/6111139644845227685/Report%20Card.pdf"],
    });
    const [row] = await logOf(c.id);
    assert.deepEqual(
      [row!.outcome, row!.status, row!.leadId, row!.submissionId, row!.payload],
      ["created", 201, lead!.id, "6084250982513018472", null],
    );
  });

  test("with an email and a phone question (added to the example): the lead's email and phone", async () => {
    const c = await connectJotform();
    const response = await deliver(c.token, withContact("6084250982513018473"), MULTIPART);
    assert.equal(response.status, 201);
    const [lead] = await leadsOf(c.team.id);
    assert.equal(lead!.firstName, "Niloth");
    assert.equal(lead!.email, "niloth@example.com");
    assert.equal(lead!.phone, "+32491223344");
  });

  test("Jotform posting the same submission again answers the same lead (200) and creates nothing", async () => {
    const c = await connectJotform();
    const body = withContact("retry-1");
    const first = await deliver(c.token, body, MULTIPART);
    assert.equal(first.status, 201);
    const again = await deliver(c.token, body, MULTIPART);
    assert.equal(again.status, 200);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    assert.equal((await again.json()).lead_id, (await first.json()).lead_id);
    assert.equal((await leadsOf(c.team.id)).length, 1);
    const [row, ...more] = await logOf(c.id);
    assert.equal(more.length, 0);
    assert.deepEqual([row!.submissionId, row!.attempts], ["retry-1", 2]);
  });

  test("without a name question: 202, the multipart body kept whole; replayed once the mapping names a question, the lead", async () => {
    const c = await connectJotform();
    const body = jotformMultipart(
      jotformFields(
        (answers) => {
          delete answers.q3_studentsName;
          answers.q10_whoAreYou = "Ada Lovelace";
        },
        { submissionID: "unnamed-1" },
      ),
    );
    assert.equal((await deliver(c.token, body, MULTIPART)).status, 202);
    const [kept] = await logOf(c.id);
    assert.deepEqual([kept!.outcome, kept!.payload], ["needs_mapping", body]);
    await changes.setConnectionMapping({ teamId: c.team.id, id: c.id, mapping: { q10_whoAreYou: "name" }, actor: CLI_ACTOR });
    const context = { requestId: "jotform-replay", ip: "198.51.100.7" };
    assert.equal((await replayDelivery({ teamId: c.team.id, deliveryId: kept!.id, context }))?.kind, "created");
    const [lead] = await leadsOf(c.team.id);
    assert.deepEqual([lead!.firstName, lead!.lastName, (lead!.extraFields as Record<string, unknown>).Grade], ["Ada", "Lovelace", "12"]);
  });

  test("a form post without rawRequest (not Jotform's webhook): 422, kept in the log to read, nothing stored", async () => {
    const c = await connectJotform();
    const body = jotformMultipart(jotformFields().filter(([name]) => name !== "rawRequest"));
    const response = await deliver(c.token, body, MULTIPART);
    assert.equal(response.status, 422);
    assert.deepEqual(await response.json(), {
      success: false,
      error: "A Jotform delivery has a rawRequest field holding the answers as JSON",
      message: "Validation failed",
    });
    assert.equal((await leadsOf(c.team.id)).length, 0);
    const [row] = await logOf(c.id);
    assert.deepEqual([row!.outcome, row!.status, row!.payload], ["refused", 422, body]);
  });
});
