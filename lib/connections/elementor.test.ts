import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fieldsOf } from "../http/read-body";
import type { Delivery } from "./answers";
import { parseElementorBody, parseElementorFields } from "./elementor";
import {
  ELEMENTOR_ADVANCED_EXAMPLE,
  ELEMENTOR_EXAMPLE,
  ELEMENTOR_FORM,
  elementorFields,
  elementorMeta,
} from "./fixtures/elementor-example";
import { formBody, phpHttpBuildQuery } from "./fixtures/php-form-body";
import { mapAnswers } from "./map-answers";

// The fixtures are bodies composed from Elementor Pro's source (the Webhook action and
// Form_Record) and written by PHP's http_build_query: see fixtures/elementor-example.ts.
// Failures, and generated forms read back: elementor-refusals.test.ts.

const triples = (delivery: Delivery) => delivery.answers.map(({ key, label, type, value }) => [key, label, type, value]);
const read = async (text: string | Buffer) => parseElementorBody(formBody(text));

const EXPECTED_META = {
  date: "September 1, 2023",
  time: "7:30 pm",
  page_url: "https://example.com/contact/",
  user_agent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Safari/605.1.15",
  remote_ip: "203.0.113.7",
  credit: "Elementor",
  form_id: "2c4c3bd",
  form_name: "New Form",
};

describe("the example files are what PHP's http_build_query writes of webhook.php's arrays", () => {
  test("Advanced Data off and on", () => {
    const fields = Object.values(elementorFields());
    const rows = Object.values(elementorMeta());
    const simple: [string, string][] = [
      ...[...fields, ...rows].map(({ title, value }): [string, string] => [title, value]),
      ["form_id", ELEMENTOR_FORM.id],
      ["form_name", ELEMENTOR_FORM.name],
    ];
    assert.equal(phpHttpBuildQuery(simple), ELEMENTOR_EXAMPLE.toString("utf8"));
    const advanced = { form: { ...ELEMENTOR_FORM }, fields: elementorFields(), meta: elementorMeta() };
    assert.equal(phpHttpBuildQuery(advanced), ELEMENTOR_ADVANCED_EXAMPLE.toString("utf8"));
  });
});

describe("Elementor Pro, Advanced Data off: labels and values", () => {
  test("no submission id; the form's id and name are metadata", async () => {
    const delivery = await read(ELEMENTOR_EXAMPLE);
    assert.equal(delivery.submissionId, null);
    assert.deepEqual(delivery.meta, { form_id: "2c4c3bd", form_name: "New Form" });
  });

  test("each field under its label, as text (a checkbox's choices joined by Elementor), untyped; the metadata rows typed meta", async () => {
    assert.deepEqual(triples(await read(ELEMENTOR_EXAMPLE)), [
      ["Name", "Name", undefined, "Ada Lovelace"],
      ["Email", "Email", undefined, "ada@example.com"],
      ["Message", "Message", undefined, "Please call me back.\nThanks!"],
      ["Phone", "Phone", undefined, "+32 491 22 33 44"],
      ["Interests", "Interests", undefined, "Pricing, Demo"],
      // A question titled "Date" would arrive the same way: typed meta, it is on the mapping page, ignored until mapped.
      ["Date", "Date", "meta", EXPECTED_META.date],
      ["Time", "Time", "meta", EXPECTED_META.time],
      ["Page URL", "Page URL", "meta", EXPECTED_META.page_url],
      ["User Agent", "User Agent", "meta", EXPECTED_META.user_agent],
      ["Remote IP", "Remote IP", "meta", EXPECTED_META.remote_ip],
      ["Powered by", "Powered by", "meta", EXPECTED_META.credit],
    ]);
  });

  test("a metadata row the team maps (a question titled Date) becomes that field", async () => {
    const mapped = mapAnswers((await read(ELEMENTOR_EXAMPLE)).answers, { Date: "extra" });
    assert.deepEqual(mapped.fields.at(-1), ["Date", EXPECTED_META.date]);
    assert.equal(mapped.answers.find((answer) => answer.key === "Page URL")?.target, "ignore");
  });

  test("mapped by the labels: name, email and phone are the lead's; the rest extra fields", async () => {
    const mapped = mapAnswers((await read(ELEMENTOR_EXAMPLE)).answers);
    assert.equal(mapped.needsMapping, null);
    assert.deepEqual(mapped.fields, [
      ["name", "Ada Lovelace"],
      ["email", "ada@example.com"],
      ["Message", "Please call me back.\nThanks!"],
      ["phone", "+32 491 22 33 44"],
      ["Interests", "Pricing, Demo"],
    ]);
  });

  test("a field without a label (No Label <id>) is kept under that name; empty values are no answer; Page Title is typed meta", () => {
    const delivery = parseElementorFields([
      ["No Label field_1a2b3c", "x"],
      ["Company", ""],
      ["Page Title", "Contact"],
      ["constructor", "kept"],
      ["", "nameless"],
      ["form_id", "abc1234"],
      ["form_name", ""],
    ]);
    assert.deepEqual(triples(delivery), [
      ["No Label field_1a2b3c", "No Label field_1a2b3c", undefined, "x"],
      ["Page Title", "Page Title", "meta", "Contact"],
      ["constructor", "constructor", undefined, "kept"],
    ]);
    assert.deepEqual(delivery.meta, { form_id: "abc1234" });
  });

  test("metadata rows under translated titles are not recognised: they arrive as answers", () => {
    const delivery = parseElementorFields([
      ["Datum", "1. September 2023"],
      ["form_id", "abc1234"],
    ]);
    assert.deepEqual(triples(delivery), [["Datum", "Datum", undefined, "1. September 2023"]]);
  });
});

describe("Elementor Pro, Advanced Data on: fields with their ids and types", () => {
  test("no submission id; form[id], form[name] and the meta rows are metadata", async () => {
    const delivery = await read(ELEMENTOR_ADVANCED_EXAMPLE);
    assert.equal(delivery.submissionId, null);
    assert.deepEqual(delivery.meta, EXPECTED_META);
  });

  test("each field keyed by its id, labelled by its title, typed by its type; several choices stay a list", async () => {
    assert.deepEqual(triples(await read(ELEMENTOR_ADVANCED_EXAMPLE)), [
      ["name", "Name", "text", "Ada Lovelace"],
      ["email", "Email", "email", "ada@example.com"],
      ["message", "Message", "text", "Please call me back.\nThanks!"],
      ["phone", "Phone", "phone", "+32 491 22 33 44"],
      ["interests", "Interests", "choice", ["Pricing", "Demo"]],
    ]);
  });

  test("mapped: email and phone by their types, the name by its label; Message and Interests extra fields", async () => {
    const mapped = mapAnswers((await read(ELEMENTOR_ADVANCED_EXAMPLE)).answers);
    assert.equal(mapped.needsMapping, null);
    assert.deepEqual(mapped.fields, [
      ["name", "Ada Lovelace"],
      ["email", "ada@example.com"],
      ["Message", "Please call me back.\nThanks!"],
      ["phone", "+32 491 22 33 44"],
      ["Interests", ["Pricing", "Demo"]],
    ]);
  });

  test("every field type: url, number, date/time, choices, upload (its URLs, never its paths), hidden; layout, spam checks and passwords are no answer", async () => {
    const field = (id: string, type: string, title: string, value: string, raw: string | string[] = value) => ({
      id,
      type,
      title,
      value,
      raw_value: raw,
      required: false,
    });
    const fields = {
      site: field("site", "url", "Website", "https://example.com"),
      seats: field("seats", "number", "Seats", "3"),
      day: field("day", "date", "Day", "2023-09-01"),
      hour: field("hour", "time", "Hour", "10:00"),
      plan: field("plan", "select", "Plan", "Pro"),
      size: field("size", "radio", "Size", "M"),
      terms: field("terms", "acceptance", "Terms", "on"),
      cv: {
        ...field(
          "cv",
          "upload",
          "CV",
          "https://example.com/wp-content/uploads/elementor/forms/cv.pdf",
          "/var/www/wp-content/uploads/elementor/forms/cv.pdf",
        ),
        file_sizes: "2",
        file_types: "pdf",
        max_files: "",
        attachment_type: "link",
      },
      utm: field("utm", "hidden", "utm_source", "newsletter"),
      custom: field("custom", "signature", "Signature", "data:image/png;base64,AAAA"),
      untitled: field("untitled", "text", "", "no title"),
      layout: field("layout", "html", "", ""),
      page2: field("page2", "step", "Step 2", ""),
      secret: field("secret", "password", "Password", "hunter2"),
      empty: field("empty", "text", "Empty", ""),
    };
    const body = phpHttpBuildQuery({ form: { id: "abc1234", name: "All" }, fields });
    assert.deepEqual(triples(await read(body)), [
      ["site", "Website", "url", "https://example.com"],
      ["seats", "Seats", "number", "3"],
      ["day", "Day", "date", "2023-09-01"],
      ["hour", "Hour", "date", "10:00"],
      ["plan", "Plan", "choice", "Pro"],
      ["size", "Size", "choice", "M"],
      ["terms", "Terms", "choice", "on"],
      ["cv", "CV", "file", "https://example.com/wp-content/uploads/elementor/forms/cv.pdf"],
      ["utm", "utm_source", "hidden", "newsletter"],
      ["custom", "Signature", undefined, "data:image/png;base64,AAAA"],
      ["untitled", "untitled", "text", "no title"],
    ]);
    const mapped = mapAnswers((await read(body)).answers);
    assert.deepEqual(
      mapped.fields.filter(([name]) => name === "website" || name === "utm_source"),
      [
        ["website", "https://example.com"],
        ["utm_source", "newsletter"],
      ],
    );
  });

  test("field ids are any text: constructor and __proto__ are fields like any other; an unknown meta row is left out", () => {
    const delivery = parseElementorFields([
      ["form[id]", "abc1234"],
      ["fields[constructor][type]", "text"],
      ["fields[constructor][value]", "a"],
      ["fields[__proto__][title]", "Proto"],
      ["fields[__proto__][value]", "b"],
      ["meta[__proto__][value]", "x"],
      ["meta[remote_ip][value]", ""],
    ]);
    assert.deepEqual(triples(delivery), [
      ["constructor", "constructor", "text", "a"],
      ["__proto__", "Proto", undefined, "b"],
    ]);
    assert.deepEqual(delivery.meta, { form_id: "abc1234" });
    assert.equal(Object.getPrototypeOf(delivery.meta), Object.prototype);
  });

  test("a checkbox with one choice ticked: a list of one; with none: no answer", () => {
    const delivery = parseElementorFields([
      ["form[id]", "abc1234"],
      ["fields[one][type]", "checkbox"],
      ["fields[one][value]", "A"],
      ["fields[one][raw_value][0]", "A"],
      ["fields[none][type]", "checkbox"],
      ["fields[none][value]", ""],
      ["fields[none][raw_value]", ""],
    ]);
    assert.deepEqual(triples(delivery), [["one", "one", "choice", ["A"]]]);
  });

  test("multipart/form-data is read as well (a filter may change the request)", async () => {
    const form = new FormData();
    form.append("form[id]", "abc1234");
    form.append("fields[email][type]", "email");
    form.append("fields[email][value]", "ada@example.com");
    const request = new Request("http://x/", { method: "POST", body: form });
    const body = formBody(new Uint8Array(await request.arrayBuffer()), request.headers.get("content-type")!);
    assert.deepEqual(triples(await parseElementorBody(body)), [["email", "email", "email", "ada@example.com"]]);
  });

  test("the body read through the intake's own form reader (fieldsOf) gives the same as the fields", async () => {
    const fields = await fieldsOf(formBody(ELEMENTOR_ADVANCED_EXAMPLE));
    assert.deepEqual(parseElementorFields(fields), await read(ELEMENTOR_ADVANCED_EXAMPLE));
  });
});
