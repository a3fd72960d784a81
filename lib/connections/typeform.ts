import { describeValue, isJsonObject, isScalar, nonEmpty, UnknownPayload } from "./answers";
import type { Answer, AnswerType, AnswerValue, Delivery } from "./answers";

// Typeform's webhook body (https://www.typeform.com/developers/webhooks/example-payload/):
//   { event_id, event_type: "form_response",
//     form_response: { form_id, token, landed_at, submitted_at, calculated?, variables?, hidden?,
//       definition: { id, title, fields: [{ id, ref, type, title, choices?, properties? }], endings? },
//       answers: [{ type, field: { id, type, ref? }, <type>: value }], ending? } }
// An answer holds its value under the key its `type` names: text, email, phone_number, url,
// number, boolean, date, file_url, choice { label | other }, choices { labels, other? },
// payment { amount, last4, name, … }. Its question's title is in definition.fields, joined
// by the field's id (or ref). Unanswered questions have no answer. Titles may hold recall
// placeholders ("{{field:abc}}"): kept as sent. `hidden` is { name: value }.

// Maps, not objects: a body's type "constructor" must not find Object.prototype's.
const BY_FIELD_TYPE = new Map<string, AnswerType>([
  ["email", "email"],
  ["phone_number", "phone"],
  ["website", "url"],
  ["url", "url"],
  ["short_text", "text"],
  ["long_text", "text"],
  ["number", "number"],
  ["opinion_scale", "number"],
  ["rating", "number"],
  ["nps", "number"],
  ["date", "date"],
  ...["multiple_choice", "dropdown", "picture_choice", "ranking", "checkbox", "yes_no", "legal"].map((type): [string, AnswerType] => [
    type,
    "choice",
  ]),
  ["file_upload", "file"],
  ["payment", "payment"],
]);
/** A question type not listed above (calendly, …) is typed by its answer; a URL answer is then text, never the lead's website. */
const BY_ANSWER_TYPE = new Map<string, AnswerType>([
  ["email", "email"],
  ["phone_number", "phone"],
  ["number", "number"],
  ["date", "date"],
  ["boolean", "choice"],
  ["choice", "choice"],
  ["choices", "choice"],
  ["file_url", "file"],
  ["payment", "payment"],
]);
/** The parts of a contact_info question (the Create API's `subfield_key`). */
const BY_SUBFIELD = new Map<string, AnswerType>([
  ["first_name", "first_name"],
  ["last_name", "last_name"],
  ["email", "email"],
  ["phone_number", "phone"],
  ["company", "text"],
]);
const SCALAR_TYPES = new Map<string, "string" | "number" | "boolean">([
  ["text", "string"],
  ["email", "string"],
  ["phone_number", "string"],
  ["url", "string"],
  ["date", "string"],
  ["file_url", "string"],
  ["number", "number"],
  ["boolean", "boolean"],
]);
/** How deep questions nest in definition.fields (a group's or a contact_info's `properties.fields`). */
const MAX_NESTING = 4;

type Question = { id: string; ref: string | null; title: string | null; type: string | null; subfield: string | null };
type Definition = { byId: Map<string, Question>; byRef: Map<string, Question> };

/** Reads a Typeform form_response body (already parsed from JSON); any other shape is refused. */
export function parseTypeformDelivery(body: unknown): Delivery {
  if (!isJsonObject(body)) throw new UnknownPayload("A Typeform delivery is a JSON object");
  if (body.event_type !== "form_response") {
    throw new UnknownPayload(`A Typeform delivery has event_type "form_response", not ${describeValue(body.event_type)}`);
  }
  const response = body.form_response;
  if (!isJsonObject(response)) throw new UnknownPayload("A Typeform delivery has a form_response object");
  if (!Array.isArray(response.answers)) throw new UnknownPayload("A Typeform delivery has a form_response.answers list");

  const definition = readDefinition(response.definition);
  const answers = response.answers.flatMap((answer, index) => readAnswer(answer, index, definition));
  answers.push(...readHidden(response.hidden));

  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);
  const meta: Record<string, string> = {};
  const metaSources: [string, unknown][] = [
    ["eventId", body.event_id],
    ["formId", response.form_id],
    ["formName", isJsonObject(response.definition) ? response.definition.title : undefined],
    ["landedAt", response.landed_at],
    ["submittedAt", response.submitted_at],
  ];
  for (const [name, value] of metaSources) {
    const kept = text(value);
    if (kept !== null) meta[name] = kept;
  }
  // The token is the response's id (the Responses API's response_id), the same on every retry.
  return { submissionId: text(response.token), answers, meta };
}

function readDefinition(definition: unknown): Definition {
  const found: Definition = { byId: new Map(), byRef: new Map() };
  if (definition === undefined || definition === null) return found;
  if (!isJsonObject(definition)) throw new UnknownPayload("A Typeform delivery's form_response.definition is an object");
  if (definition.fields === undefined) return found;
  if (!Array.isArray(definition.fields)) throw new UnknownPayload("A Typeform delivery has a form_response.definition.fields list");
  const add = (fields: unknown[], depth: number) => {
    fields.forEach((field, index) => {
      if (!isJsonObject(field)) throw new UnknownPayload(`Typeform question ${index + 1} of the definition is not an object`);
      const question: Question = {
        id: typeof field.id === "string" ? field.id : "",
        ref: nonEmpty(field.ref),
        title: nonEmpty(typeof field.title === "string" ? field.title.trim() : null),
        type: nonEmpty(field.type),
        subfield: nonEmpty(field.subfield_key),
      };
      if (question.id !== "" && !found.byId.has(question.id)) found.byId.set(question.id, question);
      if (question.ref !== null && !found.byRef.has(question.ref)) found.byRef.set(question.ref, question);
      const inner = isJsonObject(field.properties) ? field.properties.fields : undefined;
      if (Array.isArray(inner) && depth < MAX_NESTING) add(inner, depth + 1);
    });
  };
  add(definition.fields, 1);
  return found;
}

function readAnswer(answer: unknown, index: number, definition: Definition): Answer[] {
  const where = `Typeform answer ${index + 1}`;
  if (!isJsonObject(answer)) throw new UnknownPayload(`${where} is not an object`);
  const field = answer.field;
  if (!isJsonObject(field)) throw new UnknownPayload(`${where} has no field`);
  const id = nonEmpty(field.id);
  const ref = nonEmpty(field.ref);
  if (id === null && ref === null) throw new UnknownPayload(`${where} has a field without an id or a ref`);
  const type = answer.type;
  if (typeof type !== "string" || type === "") throw new UnknownPayload(`${where} has no type`);
  const described = `${where} (${type.slice(0, 40)})`;

  const question = (id !== null ? definition.byId.get(id) : undefined) ?? (ref !== null ? definition.byRef.get(ref) : undefined);
  const key = question?.ref ?? ref ?? question?.id ?? id!;
  const label = question?.title ?? question?.ref ?? ref ?? id!;
  const answerType = typeOf(question, nonEmpty(field.type), type);
  // A value is the answer's own property named by its type, never an inherited one.
  const value = Object.hasOwn(answer, type) ? answer[type] : undefined;
  if (value === undefined || value === null) return [];

  if (type === "payment") return paymentAnswers(value, { key, label, type: answerType }, described);
  const read = answerValue(type, value);
  if (read === undefined) throw new UnknownPayload(`${described} has a value of a shape Typeform does not document`);
  return read === null ? [] : [{ key, label, type: answerType, value: read }];
}

/** The question's kind decides; a contact_info part by its subfield_key, an unlisted question type by its answer's type. */
function typeOf(question: Question | undefined, fieldType: string | null, answerType: string): AnswerType {
  const subfield = question?.subfield ? BY_SUBFIELD.get(question.subfield) : undefined;
  if (subfield) return subfield;
  const questionType = question?.type ?? fieldType;
  return (questionType !== null ? BY_FIELD_TYPE.get(questionType) : undefined) ?? BY_ANSWER_TYPE.get(answerType) ?? "text";
}

/** The answer's value; null: no answer (nothing chosen, empty text); undefined: a shape Typeform does not document. */
function answerValue(type: string, value: unknown): AnswerValue | null | undefined {
  const scalar = SCALAR_TYPES.get(type);
  if (scalar) {
    if (typeof value !== scalar) return undefined;
    return value === "" ? null : (value as string | number | boolean);
  }
  if (type === "choice") {
    if (!isJsonObject(value)) return undefined;
    return nonEmpty(value.label) ?? nonEmpty(value.other);
  }
  if (type === "choices") {
    if (!isJsonObject(value)) return undefined;
    const labels = value.labels ?? [];
    if (!Array.isArray(labels) || !labels.every((label) => typeof label === "string")) return undefined;
    const other = nonEmpty(value.other);
    const chosen = [...labels.filter((label) => label !== ""), ...(other !== null ? [other] : [])];
    return chosen.length ? chosen : null;
  }
  // An answer type not documented yet: a plain value is kept as sent, anything else is refused.
  if (isScalar(value)) return value === "" ? null : value;
  if (Array.isArray(value) && value.every(isScalar)) return value.length ? value.map(String) : null;
  return undefined;
}

/** A payment as one answer per detail Typeform sends ("Pay here (amount)", "Pay here (last4)", …). */
function paymentAnswers(value: unknown, answer: Omit<Answer, "value">, described: string): Answer[] {
  if (!isJsonObject(value)) throw new UnknownPayload(`${described} has a value of a shape Typeform does not document`);
  return Object.entries(value).flatMap(([detail, detailValue]): Answer[] => {
    if (detailValue === null || detailValue === "") return [];
    if (!isScalar(detailValue)) throw new UnknownPayload(`${described} has a payment detail that is not a plain value`);
    return [{ key: `${answer.key}.${detail}`, label: `${answer.label} (${detail})`, type: "payment", value: detailValue }];
  });
}

/** One answer per hidden field, named by the field (utm_source …); its key is `hidden.<name>`. */
function readHidden(hidden: unknown): Answer[] {
  if (hidden === undefined || hidden === null) return [];
  if (!isJsonObject(hidden)) throw new UnknownPayload("A Typeform delivery's form_response.hidden is an object");
  return Object.entries(hidden).flatMap(([name, value], index): Answer[] => {
    if (value === null || value === "") return [];
    if (!isScalar(value)) throw new UnknownPayload(`Typeform hidden field ${index + 1} has a value that is not text`);
    return [{ key: `hidden.${name}`, label: name, type: "hidden", value }];
  });
}
