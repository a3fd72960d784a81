import { describeValue, isJsonObject, isScalar, UnknownPayload } from "./answers";
import type { Answer, AnswerType, AnswerValue, Delivery } from "./answers";

// Tally's webhook body (https://tally.so/help/webhooks, "Example webhook event"):
//   { eventId, eventType: "FORM_RESPONSE", createdAt,
//     data: { responseId, submissionId, respondentId, formId, formName, createdAt,
//             fields: [{ key, label, type, value, options? }] } }
// Choice questions send the chosen option ids in `value` beside `options: [{ id, text }]`;
// checkboxes also send one true/false entry per option (key `<key>_<optionId>`, label
// "Question (Option)"), which repeats the main entry and is left out here. Files and
// signatures send [{ id, name, url, mimeType, size }]; a matrix sends { rowId: [columnId] }
// beside `rows` and `columns`. An unanswered question's value is null: no answer.

const CHOICE_TYPES = new Set(["MULTIPLE_CHOICE", "DROPDOWN", "CHECKBOXES", "MULTI_SELECT", "RANKING"]);
/** Questions with one answer: their one chosen option is a text, not a list of one. */
const SINGLE_CHOICE_TYPES = new Set(["MULTIPLE_CHOICE", "DROPDOWN"]);
const FILE_TYPES = new Set(["FILE_UPLOAD", "SIGNATURE"]);

// A Map, not an object: a body's type "constructor" must not find Object.prototype's.
const ANSWER_TYPES = new Map<string, AnswerType>([
  ["INPUT_EMAIL", "email"],
  ["INPUT_PHONE_NUMBER", "phone"],
  ["INPUT_LINK", "url"],
  ["INPUT_TEXT", "text"],
  ["TEXTAREA", "text"],
  ["INPUT_NUMBER", "number"],
  ["RATING", "number"],
  ["LINEAR_SCALE", "number"],
  ["INPUT_DATE", "date"],
  ["INPUT_TIME", "date"],
  ["HIDDEN_FIELDS", "hidden"],
  ["PAYMENT", "payment"],
  ...[...CHOICE_TYPES].map((type): [string, AnswerType] => [type, "choice"]),
  ...[...FILE_TYPES].map((type): [string, AnswerType] => [type, "file"]),
]);

/** `where` names the field in a refusal by its place and type, not by what was answered. */
type TallyField = { key: string; label: string; type: string; value: unknown; raw: Record<string, unknown>; where: string };
type Option = { id: string; text: string };

/** Reads a Tally FORM_RESPONSE body (already parsed from JSON); any other shape is refused. */
export function parseTallyDelivery(body: unknown): Delivery {
  if (!isJsonObject(body)) throw new UnknownPayload("A Tally delivery is a JSON object");
  if (body.eventType !== "FORM_RESPONSE") {
    throw new UnknownPayload(`A Tally delivery has eventType "FORM_RESPONSE", not ${describeValue(body.eventType)}`);
  }
  const data = body.data;
  if (!isJsonObject(data)) throw new UnknownPayload("A Tally delivery has a data object");
  if (!Array.isArray(data.fields)) throw new UnknownPayload("A Tally delivery has a data.fields list");

  const fields = data.fields.map(readField);
  const perOption = perOptionKeys(fields);
  const answers: Answer[] = [];
  for (const field of fields) {
    if (perOption.has(field.key) && typeof field.value === "boolean") continue;
    const value = answerValue(field);
    if (value === null) continue;
    answers.push({ key: field.key, label: field.label, type: ANSWER_TYPES.get(field.type) ?? "text", value });
  }

  const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);
  const meta: Record<string, string> = {};
  const metaSources: [string, unknown][] = [
    ["eventId", body.eventId],
    ["formId", data.formId],
    ["formName", data.formName],
    ["respondentId", data.respondentId],
    ["submittedAt", data.createdAt],
  ];
  for (const [name, value] of metaSources) {
    const kept = text(value);
    if (kept !== null) meta[name] = kept;
  }
  // responseId is the submission's id in every documented body; submissionId repeats it.
  return { submissionId: text(data.responseId) ?? text(data.submissionId), answers, meta };
}

function readField(field: unknown, index: number): TallyField {
  const where = `Tally field ${index + 1}`;
  if (!isJsonObject(field)) throw new UnknownPayload(`${where} is not an object`);
  const { key, label, type } = field;
  if (typeof key !== "string" || key === "") throw new UnknownPayload(`${where} has no key`);
  if (typeof type !== "string" || type === "") throw new UnknownPayload(`${where} has no type`);
  // A question without a title has no label; its key still names it.
  if (label !== undefined && label !== null && typeof label !== "string") throw new UnknownPayload(`${where} has a label that is not text`);
  const kept = typeof label === "string" && label.trim() !== "" ? label : key;
  return { key, label: kept, type, value: field.value, raw: field, where: `${where} (${type.slice(0, 40)})` };
}

/** The keys of the true/false entries Tally adds beside a choice question, one per option. */
function perOptionKeys(fields: TallyField[]): Set<string> {
  const keys = new Set<string>();
  for (const field of fields) {
    if (!Array.isArray(field.raw.options)) continue;
    for (const option of field.raw.options) {
      if (isJsonObject(option) && typeof option.id === "string") keys.add(`${field.key}_${option.id}`);
    }
  }
  return keys;
}

function answerValue(field: TallyField): AnswerValue | null {
  const { value, type } = field;
  if (value === null || value === undefined) return null;
  if (CHOICE_TYPES.has(type)) return choiceValue(field);
  if (FILE_TYPES.has(type)) return fileValue(field);
  if (type === "MATRIX") return matrixValue(field);
  if (isScalar(value)) return value;
  // A list of texts from a question type not documented yet: kept as the list it is.
  if (Array.isArray(value) && value.every(isScalar)) return value.map(String);
  throw unknownValue(field);
}

/** The chosen options' texts, in the order sent. A value that is no option's id is kept as sent. */
function choiceValue(field: TallyField): AnswerValue | null {
  const options = readOptions(field, field.raw.options);
  const ids = typeof field.value === "string" ? [field.value] : field.value;
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === "string")) throw unknownValue(field);
  const texts = ids.map((id) => options.get(id) ?? id);
  if (!texts.length) return null;
  return SINGLE_CHOICE_TYPES.has(field.type) && texts.length === 1 ? texts[0]! : texts;
}

/** Uploaded files (and drawn signatures) by their URL: the bytes stay with Tally. */
function fileValue(field: TallyField): string[] | null {
  if (!Array.isArray(field.value)) throw unknownValue(field);
  const urls = field.value.map((file) => {
    if (!isJsonObject(file) || typeof file.url !== "string") throw unknownValue(field);
    return file.url;
  });
  return urls.length ? urls : null;
}

/** One "Row: Column" text per answered row, e.g. "Speed: Neutral". */
function matrixValue(field: TallyField): string[] | null {
  const rows = readOptions(field, field.raw.rows);
  const columns = readOptions(field, field.raw.columns);
  if (!isJsonObject(field.value)) throw unknownValue(field);
  const lines = Object.entries(field.value).map(([rowId, chosen]) => {
    if (!Array.isArray(chosen) || !chosen.every((id) => typeof id === "string")) throw unknownValue(field);
    return `${rows.get(rowId) ?? rowId}: ${chosen.map((id) => columns.get(id) ?? id).join(", ")}`;
  });
  return lines.length ? lines : null;
}

function readOptions(field: TallyField, list: unknown): Map<string, string> {
  if (!Array.isArray(list)) throw new UnknownPayload(`${field.where} has no list of options`);
  const options = list.map((option): Option => {
    if (!isJsonObject(option) || typeof option.id !== "string" || typeof option.text !== "string") {
      throw new UnknownPayload(`${field.where} has an option without an id and a text`);
    }
    return { id: option.id, text: option.text };
  });
  return new Map(options.map((option) => [option.id, option.text]));
}

const unknownValue = (field: TallyField) => new UnknownPayload(`${field.where} has a value of a shape Tally does not document`);
