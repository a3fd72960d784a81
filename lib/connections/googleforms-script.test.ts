import assert from "node:assert/strict";
import { describe, test } from "node:test";
import vm from "node:vm";
import fc from "fast-check";
import { EXAMPLE_FORM, loadAppsScript, scriptRequest, type FakeForm, type FakeItem } from "./fixtures/apps-script-fakes";
import { googleFormsExampleBody } from "./fixtures/googleforms-example";
import { parseGoogleFormsDelivery } from "./googleforms";
import { GOOGLE_FORMS_HANDLER, googleFormsScript } from "./googleforms-script";
import { mapAnswers } from "./map-answers";

// The Apps Script we give teams for Google Forms (googleforms-script.ts), run in node:vm
// against fakes of FormApp, ScriptApp and UrlFetchApp that behave as Google's reference says
// (fixtures/apps-script-fakes.ts): what it posts is exactly what parseGoogleFormsDelivery
// reads, and the URL it is given stays a string whatever it holds.

const URL = "https://leads.example.com/api/connections/c_AAAAAAAAAAAAAAAAAAAAAA";
const script = googleFormsScript(URL);

describe("the generated script", () => {
  test("is valid JavaScript, plain ES5 (no arrow, let, const or template), defining install and the trigger's handler", () => {
    assert.doesNotThrow(() => new vm.Script(script));
    assert.doesNotThrow(() => new Function(script));
    assert.doesNotMatch(script, /=>|\blet\b|\bconst\b|`/);
    const run = loadAppsScript(script);
    assert.equal(typeof run.context.install, "function");
    assert.equal(typeof run.context[GOOGLE_FORMS_HANDLER], "function");
    assert.equal(run.context.CONNECTION_URL, URL);
  });

  test("holds the URL as a JSON string literal: no URL can end the string or run code", () => {
    const hostile = [
      'https://x.example/"; globalThis.pwned = 1; "',
      "https://x.example/'; globalThis.pwned = 1; '",
      'https://x.example/\\"; globalThis.pwned = 1; //',
      "https://x.example/\n globalThis.pwned = 1;\n",
      "https://x.example/\u2028globalThis.pwned = 1;\u2029",
      "https://x.example/*/ globalThis.pwned = 1; /*",
      "https://x.example/${globalThis.pwned = 1}",
      "https://x.example/</script><script>globalThis.pwned = 1</script>",
    ];
    for (const url of hostile) {
      const text = googleFormsScript(url);
      assert.ok(text.includes(`var CONNECTION_URL = ${JSON.stringify(url)};`));
      const run = loadAppsScript(text);
      assert.equal(run.context.CONNECTION_URL, url);
      assert.equal(run.context.pwned, undefined);
      run.submit();
      assert.equal(run.fetches[0]!.url, url);
    }
  });

  test("any URL at all stays the exact string it was (fast-check)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (url) => {
        const run = loadAppsScript(googleFormsScript(url));
        assert.equal(run.context.CONNECTION_URL, url);
        assert.equal(run.context.pwned, undefined);
      }),
      { numRuns: 200 },
    );
  });
});

describe("install()", () => {
  test("adds one installable form-submit trigger for the form, calling the handler; a second run adds none", () => {
    const run = loadAppsScript(script);
    run.install();
    assert.deepEqual(
      run.triggers.map(({ handler, event }) => [handler, event]),
      [[GOOGLE_FORMS_HANDLER, "ON_FORM_SUBMIT"]],
    );
    assert.equal(run.triggers[0]!.form, (run.context.FormApp as { getActiveForm: () => unknown }).getActiveForm());
    run.install();
    assert.equal(run.triggers.length, 1);
    assert.deepEqual(run.logs, [
      "Installed: each new response is now sent to the connection URL.",
      "Already installed: each new response is sent to the connection URL.",
    ]);
    assert.deepEqual(run.fetches, []);
  });
});

describe("a response", () => {
  test("is posted once, as JSON with muteHttpExceptions, and its body is the example fixture byte for byte", () => {
    const run = loadAppsScript(script);
    run.submit();
    assert.equal(run.fetches.length, 1);
    const [{ url, params }] = run.fetches as [(typeof run.fetches)[0]];
    assert.equal(url, URL);
    assert.deepEqual(Object.keys(params), ["method", "contentType", "payload", "muteHttpExceptions"]);
    assert.equal(params.method, "post");
    assert.equal(params.contentType, "application/json");
    assert.equal(params.muteHttpExceptions, true);
    assert.equal(params.payload, googleFormsExampleBody());
    assert.deepEqual([run.logs, run.errors], [[], []]);
  });

  test("what it posts becomes the lead's fields: name, collected email, phone, organization, then extra fields", () => {
    const delivery = parseGoogleFormsDelivery(JSON.parse(scriptRequest(script).body));
    assert.equal(delivery.submissionId, EXAMPLE_FORM.responseId);
    assert.deepEqual(delivery.meta, { formId: EXAMPLE_FORM.id, formTitle: "Contact us", submittedAt: "2025-03-14T09:26:53.589Z" });
    const mapped = mapAnswers(delivery.answers);
    assert.equal(mapped.needsMapping, null);
    assert.deepEqual(mapped.fields.slice(0, 4), [
      ["name", "Ada Lovelace"],
      ["email", "ada@example.com"],
      ["phone", "+32 491 22 33 44"],
      ["organization", "Analytical Engines Ltd"],
    ]);
    assert.deepEqual(mapped.fields.slice(-2), [
      ["Rate our service", ["Speed: Fast"]],
      ["When can we call?", ["Monday: Morning, Evening"]],
    ]);
  });

  test("a form that does not collect emails (getRespondentEmail() is ''): no respondentEmail in the body", () => {
    const body = JSON.parse(scriptRequest(script, { ...EXAMPLE_FORM, respondentEmail: "" }).body);
    assert.equal("respondentEmail" in body, false);
    assert.equal(parseGoogleFormsDelivery(body).answers[0]!.label, "Full name");
  });

  test("a refusal (401, 404, 422) is logged with its status and answer, not retried, not thrown", () => {
    for (const status of [401, 404, 422]) {
      const run = loadAppsScript(script, EXAMPLE_FORM, { status, body: '{"success":false}' });
      assert.doesNotThrow(() => run.submit());
      assert.equal(run.fetches.length, 1);
      assert.deepEqual(run.errors, [`Lead Intake answered ${status} to response ${EXAMPLE_FORM.responseId}: {"success":false}`]);
    }
    for (const status of [200, 201, 202]) {
      const run = loadAppsScript(script, EXAMPLE_FORM, { status, body: "{}" });
      run.submit();
      assert.deepEqual(run.errors, []);
    }
  });

  test("busy (429) or failing (5xx): tried again after 5 s and 30 s, the same body each time; then logged and left", () => {
    const busy = { status: 429, body: '{"success":false}' };
    const later = loadAppsScript(script, EXAMPLE_FORM, [busy, { status: 201, body: "{}" }]);
    later.submit();
    assert.equal(later.fetches.length, 2);
    assert.deepEqual(later.sleeps, [5000]);
    assert.equal(later.fetches[1]!.params.payload, later.fetches[0]!.params.payload);
    assert.deepEqual(later.errors, [`Lead Intake answered 429 to response ${EXAMPLE_FORM.responseId}: {"success":false} (trying again)`]);
    const unreachable = loadAppsScript(script, EXAMPLE_FORM, [
      { status: 0, body: "" },
      { status: 201, body: "{}" },
    ]);
    assert.doesNotThrow(() => unreachable.submit());
    assert.equal(unreachable.fetches.length, 2);
    assert.match(unreachable.errors[0]!, /^Lead Intake answered 0 to response .*Address unavailable.*\(trying again\)$/);
    for (const status of [429, 500, 503]) {
      const run = loadAppsScript(script, EXAMPLE_FORM, { status, body: "x" });
      assert.doesNotThrow(() => run.submit());
      assert.equal(run.fetches.length, 3);
      assert.deepEqual(run.sleeps, [5000, 30000]);
      assert.equal(run.errors.length, 3);
      assert.doesNotMatch(run.errors[2]!, /trying again/);
    }
  });

  test("every question type is named by its FormApp.ItemType; an unknown one by the enum's own name", () => {
    const items: FakeItem[] = [
      { id: 1, title: "List", type: "LIST", response: "B" },
      { id: 2, title: "Time", type: "TIME", response: "13:45" },
      { id: 3, title: "When", type: "DATETIME", response: "2025-03-20 13:45" },
      { id: 4, title: "How long", type: "DURATION", response: "1:30:00" },
      { id: 5, title: "Stars", type: "RATING", response: "5" },
      { id: 6, title: "CV", type: "FILE_UPLOAD", response: ["1AbCdEf"] },
      { id: 7, title: "Odd", type: "UNSUPPORTED", response: "x" },
    ];
    const body = JSON.parse(scriptRequest(script, { ...EXAMPLE_FORM, items }).body) as { answers: { type: string }[] };
    assert.deepEqual(
      body.answers.map((answer) => answer.type),
      ["LIST", "TIME", "DATETIME", "DURATION", "RATING", "FILE_UPLOAD", "UNSUPPORTED"],
    );
    assert.deepEqual(
      parseGoogleFormsDelivery(body).answers.map((answer) => answer.type),
      ["email", "choice", "date", "date", "text", "number", "file", undefined],
    );
  });

  test("any response the fakes can give is posted in a shape the adapter accepts (fast-check)", () => {
    const text = fc.string({ maxLength: 20 });
    const texts = fc.array(text, { maxLength: 4 });
    const rows = fc.array(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 4 });
    const plain = fc.constantFrom(
      "TEXT",
      "PARAGRAPH_TEXT",
      "MULTIPLE_CHOICE",
      "LIST",
      "SCALE",
      "RATING",
      "DATE",
      "TIME",
      "DATETIME",
      "DURATION",
    );
    const base = { id: fc.integer({ min: 1, max: 2 ** 31 - 1 }), title: text };
    const item: fc.Arbitrary<FakeItem> = fc.oneof(
      fc.record({ ...base, type: plain, response: text }),
      fc.record({ ...base, type: fc.constantFrom("CHECKBOX", "FILE_UPLOAD"), response: texts }),
      rows.chain((names) =>
        fc.oneof(
          fc.record({
            ...base,
            type: fc.constant("GRID"),
            rows: fc.constant(names),
            response: fc.array(text, { minLength: names.length, maxLength: names.length }),
          }),
          fc.record({
            ...base,
            type: fc.constant("CHECKBOX_GRID"),
            rows: fc.constant(names),
            response: fc.array(fc.oneof(fc.constant(""), texts), { minLength: names.length, maxLength: names.length }),
          }),
        ),
      ),
    );
    const form: fc.Arbitrary<FakeForm> = fc.record({
      id: fc.string({ minLength: 1 }),
      title: text,
      responseId: fc.string({ minLength: 1 }),
      timestamp: fc.date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }),
      respondentEmail: fc.oneof(fc.constant(""), fc.emailAddress()),
      items: fc.array(item, { maxLength: 8 }),
    });
    fc.assert(
      fc.property(form, (generated) => {
        const delivery = parseGoogleFormsDelivery(JSON.parse(scriptRequest(script, generated).body));
        assert.equal(delivery.submissionId, generated.responseId);
        assert.ok(delivery.answers.length <= generated.items.length + 1);
      }),
      { numRuns: 300 },
    );
  });
});
