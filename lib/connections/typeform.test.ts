import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Delivery } from "./answers";
import { loose, typeformExample, withAnswers, withResponse } from "./fixtures/typeform-example";
import { mapAnswers } from "./map-answers";
import { parseTypeformDelivery } from "./typeform";

// The fixture is Typeform's documented example (https://www.typeform.com/developers/webhooks/
// example-payload/): see fixtures/typeform-example.ts for its source. Refusals and generated
// bodies: typeform-refusals.test.ts.

const triples = (delivery: Delivery) => delivery.answers.map(({ label, type, value }) => [label, type, value]);

describe("Typeform's documented example", () => {
  const delivery = parseTypeformDelivery(typeformExample());

  test("the submission id is form_response.token; the ids, the form's title and the times are metadata", () => {
    assert.equal(delivery.submissionId, "a3a12ec67a1365927098a606107fac15");
    assert.deepEqual(delivery.meta, {
      eventId: "LtWXD3crgy",
      formId: "lT4Z3j",
      formName: "Webhooks example",
      landedAt: "2018-01-18T18:07:02Z",
      submittedAt: "2018-01-18T18:17:02Z",
    });
  });

  test("every answer under its question's title, field by field; the hidden field last", () => {
    assert.deepEqual(triples(delivery), [
      [
        "Thanks, {{answer_60906475}}! What's it like where you live? Tell us in a few sentences.",
        "text",
        "It's cold right now! I live in an older medium-sized city with a university. Geographically, the area is hilly.",
      ],
      [
        "If you're OK with our city management following up if they have further questions, please give us your email address.",
        "email",
        "laura@example.com",
      ],
      ["What is your first name?", "text", "Laura"],
      ["When did you move to the place where you live?", "date", "2005-10-15"],
      ["Which pictures do you like? You can choose as many as you like.", "choice", ["London", "Sydney"]],
      ["On a scale of 1 to 5, what rating would you give the weather in Sydney? 1 is poor weather, 5 is excellent weather", "number", 5],
      [
        "By submitting this form, you understand and accept that we will share your answers with city management. Your answers will be anonymous will not be shared.",
        "choice",
        true,
      ],
      ["Which of these cities is your favorite?", "choice", "London"],
      ["Do you have a favorite city we haven't listed?", "choice", false],
      ["How important is the weather to your opinion about a city? 1 is not important, 5 is very important.", "number", 2],
      ["How would you rate the weather where you currently live? 1 is poor weather, 5 is excellent weather.", "number", 3],
      ["On a scale of 1 to 5, what rating would you give the general quality of life in Sydney? 1 is poor, 5 is excellent", "number", 4],
      // A calendly booking's URL is not the lead's website.
      ["Book a time with me", "text", "https://calendly.com/scheduled_events/EVENT_TYPE/invitees/INVITEE"],
      ["user_id", "hidden", "abc123456"],
    ]);
  });

  test("the keys are the questions' refs; a hidden field's is hidden.<name>", () => {
    assert.deepEqual(
      delivery.answers.map((answer) => answer.key),
      [
        "readable_ref_long_text",
        "readable_ref_email",
        "readable_ref_short_text",
        "readable_ref_date",
        "readable_ref_picture_choice",
        "readable_ref_number1",
        "readable_ref_legal",
        "readable_ref_multiple_choice",
        "readable_ref_yes_no",
        "readable_ref_opinion_scale",
        "readable_ref_rating",
        "readable_ref_number2",
        "readable_ref_calendly",
        "hidden.user_id",
      ],
    );
  });

  test("mapped, the email is the lead's; no answer gives a name", () => {
    const mapped = mapAnswers(delivery.answers);
    assert.deepEqual(
      mapped.fields.find(([field]) => field === "email"),
      ["email", "laura@example.com"],
    );
    assert.ok(mapped.needsMapping);
  });
});

describe("Typeform answers", () => {
  const q = (id: string, type: string, title?: string, ref?: string) => ({
    id,
    type,
    ...(title !== undefined && { title }),
    ...(ref && { ref }),
  });
  const answer = (id: string, fieldType: string, type: string, value: unknown, ref?: string) => ({
    type,
    [type]: value,
    field: { id, type: fieldType, ...(ref && { ref }) },
  });

  test("choices: the labels and the 'other' text, a list; one choice: its label, else its 'other'; nothing chosen: no answer", () => {
    const delivery = parseTypeformDelivery(
      withAnswers(
        [
          answer("a", "multiple_choice", "choices", { ids: ["x", "y"], labels: ["Surf", "Golf"], refs: ["x", "y"], other: "Chess" }),
          answer("b", "dropdown", "choice", { id: "z", label: "Starter", ref: "z" }),
          answer("c", "multiple_choice", "choice", { other: "Something else" }),
          answer("d", "ranking", "choices", { labels: [] }),
          answer("e", "multiple_choice", "choice", {}),
          // The Responses API's form of a dropdown: its label as text.
          answer("f", "dropdown", "text", "Job opportunities"),
        ],
        [q("a", "multiple_choice", "Sports"), q("b", "dropdown", "Plan"), q("c", "multiple_choice", "Plan (other)")],
      ),
    );
    assert.deepEqual(triples(delivery), [
      ["Sports", "choice", ["Surf", "Golf", "Chess"]],
      ["Plan", "choice", "Starter"],
      ["Plan (other)", "choice", "Something else"],
      ["f", "choice", "Job opportunities"],
    ]);
  });

  test("types: phone, website, file, payment (one answer per detail), an unlisted question type by its answer", () => {
    const delivery = parseTypeformDelivery(
      withAnswers(
        [
          answer("p", "phone_number", "phone_number", "+32491223344"),
          answer("w", "website", "url", "https://example.com"),
          answer("f", "file_upload", "file_url", "https://api.typeform.com/forms/lT4Z3j/responses/x/fields/f/files/cv.pdf"),
          answer("m", "payment", "payment", { amount: "9.00", last4: "4242", name: "Ada Lovelace", success: true }),
          answer("n", "nps", "number", 9),
          answer("s", "signature_new", "url", "https://example.com/sig.png"),
        ],
        [q("p", "phone_number", "Phone"), q("w", "website", "Site"), q("f", "file_upload", "CV"), q("m", "payment", "Pay")],
      ),
    );
    assert.deepEqual(triples(delivery), [
      ["Phone", "phone", "+32491223344"],
      ["Site", "url", "https://example.com"],
      ["CV", "file", "https://api.typeform.com/forms/lT4Z3j/responses/x/fields/f/files/cv.pdf"],
      ["Pay (amount)", "payment", "9.00"],
      ["Pay (last4)", "payment", "4242"],
      ["Pay (name)", "payment", "Ada Lovelace"],
      ["Pay (success)", "payment", true],
      ["n", "number", 9],
      ["s", "text", "https://example.com/sig.png"],
    ]);
    assert.deepEqual(
      delivery.answers.slice(3, 5).map((a) => a.key),
      ["m.amount", "m.last4"],
    );
  });

  test("a contact_info question's parts by their subfield_key: first and last name make the lead's name", () => {
    const contact = {
      id: "ci",
      type: "contact_info",
      title: "Your contact details",
      properties: {
        fields: [
          { id: "fn", ref: "first", title: "First name", type: "short_text", subfield_key: "first_name" },
          { id: "ln", ref: "last", title: "Last name", type: "short_text", subfield_key: "last_name" },
          { id: "em", title: "Email", type: "email", subfield_key: "email" },
          { id: "ph", title: "Phone number", type: "phone_number", subfield_key: "phone_number" },
          { id: "co", title: "Company", type: "short_text", subfield_key: "company" },
        ],
      },
    };
    const delivery = parseTypeformDelivery(
      withAnswers(
        [
          answer("fn", "short_text", "text", "Ada"),
          answer("ln", "short_text", "text", "Lovelace"),
          answer("em", "email", "email", "ada@example.com"),
          answer("ph", "phone_number", "phone_number", "+441234567890"),
          answer("co", "short_text", "text", "Analytical Engines"),
        ],
        [contact],
      ),
    );
    assert.deepEqual(triples(delivery), [
      ["First name", "first_name", "Ada"],
      ["Last name", "last_name", "Lovelace"],
      ["Email", "email", "ada@example.com"],
      ["Phone number", "phone", "+441234567890"],
      ["Company", "text", "Analytical Engines"],
    ]);
    assert.deepEqual(mapAnswers(delivery.answers).fields.slice(0, 4), [
      ["name", "Ada Lovelace"],
      ["email", "ada@example.com"],
      ["phone", "+441234567890"],
      ["organization", "Analytical Engines"],
    ]);
  });

  test("labels: the title trimmed (recall placeholders kept), else the ref, else the id; joined by id, else by ref", () => {
    const delivery = parseTypeformDelivery(
      withAnswers(
        [
          answer("t1", "short_text", "text", "one"),
          answer("t2", "short_text", "text", "two"),
          answer("t3", "short_text", "text", "three", "by_ref"),
          answer("unknown", "short_text", "text", "four", "only_ref"),
          answer("t5", "short_text", "text", "five"),
        ],
        [
          q("t1", "short_text", "  Hi {{field:abc}}, your company?\n"),
          q("t2", "short_text", "   ", "ref_two"),
          q("other", "short_text", "Joined", "by_ref"),
        ],
      ),
    );
    assert.deepEqual(
      delivery.answers.map(({ key, label }) => [key, label]),
      [
        ["t1", "Hi {{field:abc}}, your company?"],
        ["ref_two", "ref_two"],
        ["by_ref", "Joined"],
        ["only_ref", "only_ref"],
        ["t5", "t5"],
      ],
    );
  });

  test("hidden fields map by their names (utm_source …); empty ones are no answer", () => {
    const delivery = parseTypeformDelivery(
      withResponse((response) => {
        response.answers = [];
        response.hidden = { utm_source: "newsletter", utm_campaign: "", gclid: null, visits: 3 };
      }),
    );
    assert.deepEqual(triples(delivery), [
      ["utm_source", "hidden", "newsletter"],
      ["visits", "hidden", 3],
    ]);
    assert.deepEqual(mapAnswers(delivery.answers).fields, [
      ["utm_source", "newsletter"],
      ["visits", 3],
    ]);
  });

  test("no definition: answers are named by their refs; no token: no submission id", () => {
    const delivery = parseTypeformDelivery(
      withResponse((response) => {
        delete loose(response).definition;
        delete response.token;
      }),
    );
    assert.equal(delivery.submissionId, null);
    assert.equal(delivery.answers[2]!.label, "JwWggjAKtOkA");
    assert.equal(delivery.answers.at(-2)!.label, "readable_ref_calendly");
    assert.equal(delivery.meta.formName, undefined);
  });
});
