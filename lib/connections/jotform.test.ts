import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import type { RawField } from "../http/read-body";
import { fieldsOf } from "../http/read-body";
import { UnknownPayload, type Delivery } from "./answers";
import {
  JOTFORM_CONTENT_TYPE,
  jotformExampleBody,
  jotformExampleFields,
  jotformFields,
  jotformMultipart,
} from "./fixtures/jotform-example";
import { parseJotformDelivery, readableLabel } from "./jotform";
import { mapAnswers } from "./map-answers";

// The fixture is a real Jotform delivery kept in Zulip's integration tests (see
// fixtures/jotform-example.ts for its source); tests change its rawRequest where they say so.

const triples = (delivery: Delivery) => delivery.answers.map(({ label, type, value }) => [label, type, value]);
const parse = (change?: (answers: Record<string, unknown>) => void, metadata?: Record<string, string>) =>
  parseJotformDelivery(jotformFields(change, metadata));

describe("a Jotform delivery as Jotform sent it (multipart/form-data)", async () => {
  const body = jotformExampleBody();
  const fields = await fieldsOf({
    bytes: new Uint8Array(Buffer.from(body)),
    contentType: JOTFORM_CONTENT_TYPE,
    mediaType: "multipart/form-data",
  });
  const delivery = parseJotformDelivery(fields);

  test("the fixture's fields written back are the body byte for byte", () => {
    assert.equal(jotformMultipart(jotformExampleFields()), body);
    assert.deepEqual(fields, jotformExampleFields());
  });

  test("the submission id is submissionID; the form's id and title, the type and the IP are metadata", () => {
    assert.equal(delivery.submissionId, "6084250982513018472");
    assert.deepEqual(delivery.meta, { formId: "243231271343446", formTitle: "Tutor Appointment Form", type: "WEB", ip: "27.51.18.17" });
  });

  test("each q<id>_<name> is an answer, labelled from its unique name; rawRequest's other keys are not answers", () => {
    assert.deepEqual(triples(delivery), [
      ["Students name (first)", "first_name", "Niloth"],
      ["Students name (last)", "last_name", "P"],
      ["Type of", undefined, "Online Tutoring"],
      ["Subject for", undefined, "Math"],
      ["Grade", undefined, "12"],
      ["Prior tutoring", undefined, "No"],
      // An appointment composite: one line per answered input (its empty date left out).
      ["Appointment", undefined, ["implementation: new", "duration: 60", "timezone: Asia/Calcutta (GMT+06:30)"]],
      ["Table", undefined, ['colIds: ["0","1","2","3"]', 'rowIds: ["0","1","2","3"]']],
      // Uploads: listed in temp_upload, their URLs sent under the bare name ("\/" read as "/").
      [
        "Identity proof",
        "file",
        [
          "https://www.jotform.com/uploads/UserNiloth/243231271343446/6111139644845227683/Student_ID_%21_%24%26%27%28%29_%2C-.%3B%3D%40%5B%5D%5E_%60%7B%7D~%20.png",
          "https://www.jotform.com/uploads/UserNiloth/243231271343446/6111139644845227684/Driving.license.png",
        ],
      ],
      ["Reports", "file", ["https://www.jotform.com/uploads/UserNiloth/243231271343446/6111139644845227685/Report%20Card.pdf"]],
    ]);
    assert.deepEqual(
      delivery.answers.map((answer) => answer.key),
      [
        "q3_studentsName[first]",
        "q3_studentsName[last]",
        "q33_typeOf",
        "q34_subjectFor",
        "q35_grade",
        "q27_priorTutoring",
        "q28_appointment",
        "q19_table",
        "q5_identityProof",
        "q6_reports",
      ],
    );
  });

  test("mapped: the name's first and last parts make the lead's name, the rest are extra fields (files too)", () => {
    const mapped = mapAnswers(delivery.answers);
    assert.equal(mapped.needsMapping, null);
    assert.deepEqual(
      mapped.fields.map(([name]) => name),
      ["name", "Type of", "Subject for", "Grade", "Prior tutoring", "Appointment", "Table", "Identity proof", "Reports"],
    );
    assert.deepEqual(mapped.fields[0], ["name", "Niloth P"]);
  });
});

describe("Jotform answers", () => {
  test("an email, a phone {area, phone} and a full name {first, last} map to the lead's fields (fields added to the example)", () => {
    const delivery = parse((answers) => {
      Object.assign(answers, {
        q40_fullName40: { first: "Ada", last: "Lovelace" },
        q41_email41: "ada@example.com",
        q42_phoneNumber: { area: "415", phone: "5550100" },
      });
      delete answers.q3_studentsName;
    });
    const mapped = new Map(mapAnswers(delivery.answers).fields);
    assert.equal(mapped.get("name"), "Ada Lovelace");
    assert.equal(mapped.get("email"), "ada@example.com");
    assert.equal(mapped.get("phone"), "(415) 5550100");
    assert.deepEqual(triples(delivery).slice(-4), [
      ["Full name (first)", "first_name", "Ada"],
      ["Full name (last)", "last_name", "Lovelace"],
      // The body says no control type: the label "Email" (from email41, question 41) decides.
      ["Email", undefined, "ada@example.com"],
      ["Phone number", "phone", "(415) 5550100"],
    ]);
  });

  test("a masked phone {full}; a mobile; an address; a date; a middle name; checkboxes; an empty composite", () => {
    const delivery = parse((answers) => {
      for (const key of Object.keys(answers)) if (/^q\d+_|^temp_upload$/.test(key)) delete answers[key];
      Object.assign(answers, {
        q3_name: { prefix: "", first: "Grace", middle: "Brewster", last: "Hopper", suffix: "" },
        q6_mobileNumber: { full: "+1 415 555 0100" },
        q5_address: { addr_line1: "1 Main St", addr_line2: "", city: "Arlington", state: "VA", postal: "22201" },
        q7_birthDate: { month: "12", day: "9", year: "1906" },
        q8_interests: ["COBOL", "", "Compilers"],
        q9_datePartial: { month: "12", day: "", year: "1906" },
        q10_empty: { month: "", day: "", year: "" },
        q11_nothing: [],
        q12_number: 7,
      });
    });
    assert.deepEqual(triples(delivery), [
      ["Name (first)", "first_name", "Grace"],
      ["Name (middle)", undefined, "Brewster"],
      ["Name (last)", "last_name", "Hopper"],
      ["Mobile number", "phone", "+1 415 555 0100"],
      ["Address", "text", "1 Main St, Arlington, VA, 22201"],
      ["Birth date", "date", "1906-12-09"],
      ["Interests", undefined, ["COBOL", "Compilers"]],
      ["Date partial", undefined, ["month: 12", "year: 1906"]],
      ["Number", undefined, 7],
    ]);
    const mapped = new Map(mapAnswers(delivery.answers).fields);
    assert.equal(mapped.get("name"), "Grace Hopper");
    // "Mobile number" with the phone type: the lead's mobile; the middle name is an extra field.
    assert.equal(mapped.get("mobile_no"), "+1 415 555 0100");
    assert.equal(mapped.get("Name (middle)"), "Brewster");
    assert.equal(mapped.get("Address"), "1 Main St, Arlington, VA, 22201");
  });

  test("a drawn signature (a data: URL, as in Zulip's older fixture) is named, its bytes are not kept", () => {
    const delivery = parse((answers) => {
      answers.q4_signature = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAATQAAAByCAYAAADd9y1a";
    });
    assert.deepEqual(triples(delivery).at(-1), ["Signature", "file", "[data URL not stored: image/png]"]);
  });

  test("labels: the id appended to a clashing name is dropped; underscores and case become words", () => {
    assert.equal(readableLabel("4", "email4"), "Email");
    assert.equal(readableLabel("69", "1Name69"), "1 name");
    assert.equal(readableLabel("3", "fullName"), "Full name");
    assert.equal(readableLabel("7", "my_field"), "My field");
    assert.equal(readableLabel("7", "7"), "7");
  });

  test("a question named constructor or __proto__ is an answer like any other; no submissionID: none", () => {
    const delivery = parseJotformDelivery([["rawRequest", '{"q1_constructor":"a","q2___proto__":"b","__proto__":"c"}']]);
    assert.deepEqual(triples(delivery), [
      ["Constructor", undefined, "a"],
      ["Proto", undefined, "b"],
    ]);
    assert.equal(delivery.submissionId, null);
    assert.deepEqual(delivery.meta, {});
  });

  test("an upload answered as a q-key of its own is not read twice from its bare name", () => {
    const delivery = parseJotformDelivery([
      ["rawRequest", JSON.stringify({ temp_upload: { q2_cv: ["cv.pdf#x"] }, q2_cv: ["https://x/cv.pdf"], cv: ["https://x/cv.pdf"] })],
    ]);
    assert.deepEqual(triples(delivery), [["Cv", undefined, ["https://x/cv.pdf"]]]);
  });
});

function assertUnknown(fields: RawField[], message: RegExp): void {
  assert.throws(
    () => parseJotformDelivery(fields),
    (error: unknown) => error instanceof UnknownPayload && message.test(error.message),
  );
}

describe("unknown Jotform shapes are refused, never guessed", () => {
  const without = jotformExampleFields().filter(([name]) => name !== "rawRequest");
  const cases: [string, RawField[], RegExp][] = [
    ["no rawRequest (a form post that is not Jotform's webhook)", without, /rawRequest field/],
    ["rawRequest twice", [...jotformExampleFields(), ["rawRequest", "{}"]], /one rawRequest/],
    ["rawRequest as a file", [["rawRequest", new File(["{}"], "raw.json")]], /JSON text, not object/],
    ["rawRequest as a JSON object (a JSON body)", [["rawRequest", { q1_name: "Ada" }]], /JSON text, not object/],
    ["rawRequest that is not JSON", [["rawRequest", "q3_name=Ada"]], /is JSON$/],
    ["rawRequest that is a list", [["rawRequest", "[]"]], /JSON object/],
    ["rawRequest that is JSON text", [["rawRequest", '"x"']], /JSON object/],
    ["an answer nested deeper than 32 levels", [["rawRequest", `{"q1_a":{"b":${"[".repeat(40)}${"]".repeat(40)}}}`]], /nested/],
  ];
  for (const [name, fields, message] of cases) test(name, () => assertUnknown(fields, message));
});

describe("any fields give a Delivery or UnknownPayload, never another error (fast-check)", () => {
  const check = (fields: RawField[]) => {
    try {
      assert.ok(Array.isArray(parseJotformDelivery(fields).answers));
    } catch (error) {
      if (!(error instanceof UnknownPayload)) throw error;
    }
  };
  const name = fc.oneof(
    fc.string(),
    fc.constantFrom("rawRequest", "submissionID", "formID", "formTitle", "ip", "type", "constructor", "__proto__"),
  );
  const key = fc.oneof(
    fc.string(),
    fc.tuple(fc.nat(99), fc.string({ minLength: 1 })).map(([id, rest]) => `q${id}_${rest}`),
    fc.constantFrom("temp_upload", "q1_constructor", "__proto__", "toString"),
  );
  const part = fc.oneof(fc.constantFrom("first", "last", "middle", "area", "phone", "full", "city", "month", "day", "year"), fc.string());
  const value: fc.Arbitrary<unknown> = fc.oneof(
    fc.string(),
    fc.constant(""),
    fc.array(fc.oneof(fc.string(), fc.integer())),
    fc.dictionary(part, fc.oneof(fc.string(), fc.jsonValue())),
    fc.dictionary(key, fc.array(fc.string())),
    fc.jsonValue(),
  );
  const rawRequest = fc.dictionary(key, value).map((answers) => JSON.stringify(answers));

  test("any fields (texts and files)", () => {
    const field = fc.tuple(name, fc.oneof(fc.string(), fc.constant(new File(["x"], "x.txt")), rawRequest));
    fc.assert(fc.property(fc.array(field, { maxLength: 6 }), check), { numRuns: 500 });
  });

  test("any JSON as rawRequest", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (json) => check([["rawRequest", JSON.stringify(json)]])),
      { numRuns: 500 },
    );
  });

  test("Jotform-shaped rawRequests never throw at all", () => {
    fc.assert(
      fc.property(rawRequest, fc.string(), (answers, id) => {
        const delivery = parseJotformDelivery([
          ["submissionID", id],
          ["rawRequest", answers],
        ]);
        assert.ok(delivery.answers.every((answer) => typeof answer.label === "string" && answer.label !== ""));
      }),
      { numRuns: 1000 },
    );
  });
});
