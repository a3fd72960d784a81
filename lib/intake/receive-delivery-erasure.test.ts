import assert from "node:assert/strict";
import { mock, test } from "node:test";
import fc from "fast-check";

// Issue 40, finding 4: a person's erasure missed their kept deliveries. Four "needs mapping"
// Generic deliveries naming four people, then "Erase a person" by email: a plain form body
// was erased; a form body with one stray "%" (which the intake reads) was kept; JSON writing
// the address with \u00eb escapes (PHP's json_encode, Python's json.dumps) was kept; a person
// with no lead could not be erased at all. On a real database (SQLite and PostgreSQL), the
// deliveries kept by the connection endpoint itself.
process.env.CONNECTION_DELIVERIES_PER_CONNECTION = "100000";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { findPersonRecords, parsePerson, runErasure } = await import("../leads/erase-person");
const { eraseKeptDeliveries } = await import("../connections/connection-erasure");
const { listAuditEvents } = await import("../audit/audit-log");
const { CLI_ACTOR, connect, db, deliver, logOf } = await import("./receive-delivery.fixtures");

// Refusals write JSON log lines on stderr; keep the output clean.
mock.method(process.stderr, "write", () => true);

const FORM = "application/x-www-form-urlencoded";

/** JSON as PHP's json_encode and Python's json.dumps write it: every non-ASCII character a \uXXXX escape. */
const asciiJson = (value: unknown) =>
  JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

async function keptBy(token: string, body: string, contentType: string | null, status = 202) {
  const response = await deliver(token, body, contentType === null ? { "content-type": "" } : { "content-type": contentType });
  assert.equal(response.status, status, body);
}

const payloadsLeft = async (connectionId: string) => (await logOf(connectionId)).map((row) => row.payload);

// The review's first three deliveries, each beside another person's that must stay.
const REVIEWED = [
  {
    sent: "a plain form body",
    typed: "ada@example.com",
    body: new URLSearchParams({ email: "ada@example.com", message: "no name" }).toString(),
    type: FORM,
  },
  {
    sent: "a form body with a stray %",
    typed: "bea@example.com",
    body: `email=${encodeURIComponent("bea@example.com")}&message=100%`,
    type: FORM,
  },
  {
    sent: "JSON with \\u00eb escapes",
    typed: "Zoë@Example.com",
    body: asciiJson({ email: "zoë@example.com", note: "no name" }),
    type: "application/json",
  },
];

for (const { sent, typed, body, type } of REVIEWED) {
  test(`a kept delivery sent as ${sent} is erased with the person, and another person's stays`, async () => {
    const c = await connect("generic");
    const team = { id: c.team.id, defaultPhoneCountry: null };
    const other = asciiJson({ email: "grace@example.com", note: "zoë" });
    assert.match(body, /^[\x20-\x7e]+$/, "sent as ASCII, as the review sent it");
    await keptBy(c.token, body, type);
    await keptBy(c.token, other, "application/json");
    const erased = await runErasure({ team, person: parsePerson(typed, team)!, confirmedIds: [], actor: CLI_ACTOR });
    assert.equal(erased.connectionDeliveries, 1);
    assert.deepEqual(await payloadsLeft(c.id), [other]);
  });
}

test("a person with no lead: the page finds their kept delivery and refused import row, and the erasure removes both", async () => {
  const c = await connect("generic");
  const team = { id: c.team.id, defaultPhoneCountry: "GB" };
  await keptBy(c.token, asciiJson({ contact: { email: "Dan.Dürr@example.com" }, phone: "+44 20 7946 0958" }), "text/plain;charset=UTF-8");
  const imported = await db().import.create({
    data: {
      ...{ id: "imp_no_lead", teamId: team.id, status: "done", fileName: "leads.csv", filePath: "imports/imp_no_lead.csv" },
      ...{ fileBytes: 1, encoding: "utf-8", delimiter: ",", headers: ["name", "email"], headerSignature: "s", totalRows: 2 },
    },
  });
  await db().importRefusedRow.create({
    data: { importId: imported.id, row: 2, cells: ["", "not an email: Dan.Dürr@Example.COM"], reason: "Name is required." },
  });
  await db().importRefusedRow.create({
    data: { importId: imported.id, row: 3, cells: ["", "eve@example.com"], reason: "Name is required." },
  });

  const person = parsePerson("dan.dürr@example.com", team)!;
  const found = await findPersonRecords(team, person);
  assert.deepEqual(
    [found.leads.length, found.records.connectionDeliveries, found.records.refusedImportRows],
    [0, 1, 1],
    "what names the person without a lead is listed, with counts",
  );

  const erased = await runErasure({ team, person, confirmedIds: [], actor: CLI_ACTOR });
  assert.deepEqual([erased.leads, erased.connectionDeliveries, erased.refusedImportRows], [0, 1, 1]);
  assert.deepEqual(await payloadsLeft(c.id), []);
  assert.equal(await db().importRefusedRow.count({ where: { importId: imported.id } }), 1, "another person's refused row stays");
  const { records: after } = await findPersonRecords(team, person);
  assert.deepEqual([after.connectionDeliveries, after.refusedImportRows], [0, 0], "nothing of the person is left to list");

  const [event] = await listAuditEvents(team.id);
  assert.deepEqual([event!.action, event!.details!.count, event!.details!.connectionDeliveries], ["lead.erased", 0, 1]);
  assert.ok(!JSON.stringify(event).toLowerCase().includes("dan"), "the audit event does not name the person");
});

test("JSON nested in arrays and in a multipart answer, a number, and a refused form body with a bad escape are read as sent", async () => {
  const generic = await connect("generic");
  const jotform = await connect("jotform");
  const team = { id: generic.team.id, defaultPhoneCountry: "GB" };
  const nested = asciiJson({ answers: [{ label: "E-mail", value: ["x", "Chloé@Example.com"] }] });
  await keptBy(generic.token, nested, null);
  // Refused (400: %FF is no UTF-8) and kept: its other pair still names the person.
  const badEscape = `email=chlo%C3%A9%40example.com&note=%FF`;
  await keptBy(generic.token, badEscape, FORM, 400);
  const byNumber = JSON.stringify({ phone: 442079460958, note: "no name" });
  await keptBy(generic.token, byNumber, "application/json");

  // Jotform posts multipart; its answers are JSON text in rawRequest, written by PHP.
  const form = new FormData();
  form.set("formID", "1");
  form.set("rawRequest", asciiJson({ q3_email: "chloé@example.com" }));
  const multipart = new Response(form);
  const multipartType = multipart.headers.get("content-type")!;
  const multipartBody = await multipart.text();
  const jotformTeam = { id: jotform.team.id, defaultPhoneCountry: "GB" };
  const response = await deliver(jotform.token, multipartBody, { "content-type": multipartType });
  assert.ok([202, 422].includes(response.status), `kept: ${response.status}`);
  assert.equal((await logOf(jotform.id)).filter((row) => row.payload !== null).length, 1);

  const chloe = await runErasure({ team, person: parsePerson("chloé@example.com", team)!, confirmedIds: [], actor: CLI_ACTOR });
  assert.equal(chloe.connectionDeliveries, 2);
  assert.deepEqual(await payloadsLeft(generic.id), [byNumber]);
  const byPhone = await runErasure({ team, person: parsePerson("020 7946 0958", team)!, confirmedIds: [], actor: CLI_ACTOR });
  assert.equal(byPhone.connectionDeliveries, 1);
  assert.deepEqual(await payloadsLeft(generic.id), []);

  const inJotform = await runErasure({
    team: jotformTeam,
    person: parsePerson("CHLOÉ@example.com", jotformTeam)!,
    confirmedIds: [],
    actor: CLI_ACTOR,
  });
  assert.equal(inJotform.connectionDeliveries, 1);
});

// Addresses as people have them: ASCII, accents, other scripts, emoji (a surrogate pair).
const LOCAL = [..."abcxyz019._-+", ..."ëéüßøåçñ", "漢", "字", "😀"];
const email = fc
  .tuple(fc.array(fc.constantFrom(...LOCAL), { minLength: 1, maxLength: 12 }), fc.constantFrom("example.com", "bücher.example", "例え.jp"))
  .map(([local, domain]) => `${local.join("")}@${domain}`);
const upperAscii = (text: string) => text.replace(/[a-z]/g, (c) => c.toUpperCase());

/** The ways a sender writes an address into a JSON body: [body, Content-Type]. */
const jsonBody = fc
  .tuple(
    email,
    fc.boolean(),
    fc.constantFrom(
      (e: string): unknown => ({ email: e }),
      (e: string): unknown => ({ contact: { emails: ["someone@else.example", e] } }),
      (e: string): unknown => [{ answer: `Write to ${e}, please` }],
      (e: string): unknown => ({ [e]: true }),
    ),
    fc.constantFrom("application/json", "text/plain;charset=UTF-8", null),
  )
  .map(([address, upper, shape, type]) => ({ address, body: asciiJson(shape(upper ? upperAscii(address) : address)), type }));

/** …and into a form body: URLSearchParams, or encodeURIComponent with a stray "%" elsewhere. */
const formBody = fc.tuple(email, fc.boolean(), fc.constantFrom(FORM, `${FORM};charset=UTF-8`)).map(([address, searchParams, type]) => ({
  address,
  body: searchParams
    ? new URLSearchParams({ note: "50% off", "contact[email]": address }).toString()
    : `note=50%&email=${encodeURIComponent(address)}&more=%`,
  type,
}));

test("any address written into a JSON body (non-ASCII escaped) or a form body (percent-encoded) is found", async () => {
  const c = await connect("generic");
  await fc.assert(
    fc.asyncProperty(fc.oneof(jsonBody, formBody), async ({ address, body, type }) => {
      const id = `dlv_property_${Math.random().toString(36).slice(2)}`;
      const at = new Date();
      await db().connectionDelivery.create({
        data: {
          ...{ id, connectionId: c.id, teamId: c.team.id, submissionId: null, outcome: "needs_mapping", status: 202 },
          ...{ contentType: type, payload: body, createdAt: at, lastAttemptAt: at },
        },
      });
      const contacts = { emails: [address.toLowerCase()], phones: [] };
      const erased = await db().$transaction((tx) => eraseKeptDeliveries(tx, { teamId: c.team.id, contacts }));
      assert.equal(erased, 1, `${type}: ${body}`);
    }),
    { numRuns: 200 },
  );
});
