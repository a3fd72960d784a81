import { describeValue, isJsonObject, nonEmpty, UnknownPayload } from "./answers";
import type { Answer, AnswerType, AnswerValue, Delivery } from "./answers";

// What our Apps Script posts for each response to a Google Form (googleforms-script.ts,
// docs/connections.md "Google Forms"). Google Forms has no webhook: the script, bound to the
// form and run by an installable "On form submit" trigger, reads the response with Apps
// Script's Forms service and posts, as JSON:
//   { source: "google-forms-apps-script", version: 1, formId, formTitle, responseId,
//     submittedAt, respondentEmail?, answers: [{ itemId, title, type, value, rows? }] }
// formId and formTitle: Form.getId() and getTitle(); responseId: FormResponse.getId(), the
// same on every delivery of one response; submittedAt: getTimestamp() as ISO 8601;
// respondentEmail: getRespondentEmail(), sent only when the form collects it. Per answer:
// the item's getId() (an integer), getTitle(), the name of its FormApp.ItemType and
// ItemResponse.getResponse() as Apps Script returns it
// (https://developers.google.com/apps-script/reference/forms/item-response#getResponse()):
// a text for most items, a list of texts for CHECKBOX, one text per row for GRID, one list
// of texts per row for CHECKBOX_GRID ('' for a row left unanswered). For the two grids the
// script adds `rows`, the grid's getRows(): each answered row becomes one "Row: Column" text.

export const GOOGLE_FORMS_SOURCE = "google-forms-apps-script";
export const GOOGLE_FORMS_VERSION = 1;

// A Map, not an object: a body's type "constructor" must not find Object.prototype's.
// No item type says email, phone or name: the question's title decides (map-answers.ts).
const ANSWER_TYPES = new Map<string, AnswerType>([
  ["TEXT", "text"],
  ["PARAGRAPH_TEXT", "text"],
  ["DURATION", "text"],
  ["MULTIPLE_CHOICE", "choice"],
  ["LIST", "choice"],
  ["CHECKBOX", "choice"],
  ["GRID", "choice"],
  ["CHECKBOX_GRID", "choice"],
  ["SCALE", "number"],
  ["RATING", "number"],
  ["DATE", "date"],
  ["TIME", "date"],
  ["DATETIME", "date"],
  ["FILE_UPLOAD", "file"],
]);
const GRID_TYPES: ReadonlySet<string> = new Set(["GRID", "CHECKBOX_GRID"]);

/** The respondent's email the form collected: an answer like the others, typed email. */
export const RESPONDENT_EMAIL_KEY = "respondentEmail";
const RESPONDENT_EMAIL_LABEL = "Email address";

const META_FIELDS = ["formId", "formTitle", "submittedAt"] as const;

/** Reads the body our Apps Script posts (already parsed from JSON); any other shape is refused. */
export function parseGoogleFormsDelivery(body: unknown): Delivery {
  if (!isJsonObject(body)) throw new UnknownPayload("A Google Forms delivery is a JSON object");
  if (body.source !== GOOGLE_FORMS_SOURCE) {
    throw new UnknownPayload(
      `A Google Forms delivery has source "${GOOGLE_FORMS_SOURCE}" (our Apps Script), not ${describeValue(body.source)}`,
    );
  }
  if (body.version !== GOOGLE_FORMS_VERSION) {
    throw new UnknownPayload(
      `A Google Forms delivery is version ${GOOGLE_FORMS_VERSION} of the script's body, not ${describeValue(body.version)}`,
    );
  }
  for (const name of [...META_FIELDS, "responseId", RESPONDENT_EMAIL_KEY]) {
    const value = body[name];
    if (value !== undefined && value !== null && typeof value !== "string") {
      throw new UnknownPayload(`A Google Forms delivery's ${name} is text`);
    }
  }
  if (!Array.isArray(body.answers)) throw new UnknownPayload("A Google Forms delivery has an answers list");

  const answers: Answer[] = [];
  const email = nonEmpty(body[RESPONDENT_EMAIL_KEY]);
  if (email !== null) answers.push({ key: RESPONDENT_EMAIL_KEY, label: RESPONDENT_EMAIL_LABEL, type: "email", value: email });
  body.answers.forEach((raw, index) => {
    const answer = readAnswer(raw, index);
    if (answer) answers.push(answer);
  });

  const meta: Record<string, string> = {};
  for (const name of META_FIELDS) {
    const kept = nonEmpty(body[name]);
    if (kept !== null) meta[name] = kept;
  }
  // FormResponse.getId(): the response's id, the same however often the script posts it.
  return { submissionId: nonEmpty(body.responseId), answers, meta };
}

/** One item's answer; null when the respondent left it empty. */
function readAnswer(raw: unknown, index: number): Answer | null {
  const where = `Google Forms answer ${index + 1}`;
  if (!isJsonObject(raw)) throw new UnknownPayload(`${where} is not an object`);
  const key = itemKey(raw.itemId);
  if (key === null) throw new UnknownPayload(`${where} has no itemId (a whole number or a text)`);
  const { type, title } = raw;
  if (typeof type !== "string" || type === "") throw new UnknownPayload(`${where} has no type`);
  if (title !== undefined && title !== null && typeof title !== "string") {
    throw new UnknownPayload(`${where} has a title that is not text`);
  }
  const named = `${where} (${type.slice(0, 40)})`;
  const value = GRID_TYPES.has(type) ? gridValue(raw.value, raw.rows, named) : plainValue(raw.value, named);
  if (value === null) return null;
  // A question without a title still has its item id.
  const label = typeof title === "string" && title.trim() !== "" ? title : key;
  const answerType = ANSWER_TYPES.get(type);
  return { key, label, ...(answerType && { type: answerType }), value };
}

/** Item.getId() is an integer; a text is taken as it is. */
function itemKey(id: unknown): string | null {
  if (typeof id === "number") return Number.isSafeInteger(id) ? String(id) : null;
  return nonEmpty(id);
}

/** A text, or a list of texts (checkboxes, files), as getResponse() returns them. */
function plainValue(value: unknown, named: string): AnswerValue | null {
  if (typeof value === "string") return value === "" ? null : value;
  if (isTextList(value)) {
    const kept = value.filter((text) => text !== "");
    return kept.length ? kept : null;
  }
  throw unknownValue(named);
}

/**
 * One "Row: Column" text per answered row, in the grid's order ("Speed: Fast"; a checkbox
 * grid's row joins its columns: "Monday: Morning, Evening"). A row left unanswered ('' or
 * null, or an empty list) is left out; a row the script could not name is "Row <n>".
 */
function gridValue(value: unknown, rows: unknown, named: string): string[] | null {
  if (rows !== undefined && rows !== null && !isTextList(rows)) throw new UnknownPayload(`${named} has rows that are not a list of texts`);
  if (!Array.isArray(value)) throw unknownValue(named);
  const names = rows ?? [];
  const lines = value.flatMap((cell: unknown, index): string[] => {
    const chosen = cell === null ? [] : typeof cell === "string" ? [cell] : isTextList(cell) ? cell : undefined;
    if (chosen === undefined) throw unknownValue(named);
    const kept = chosen.filter((text) => text !== "");
    if (!kept.length) return [];
    const row = names[index];
    return [`${row ? row : `Row ${index + 1}`}: ${kept.join(", ")}`];
  });
  return lines.length ? lines : null;
}

const isTextList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === "string");

const unknownValue = (named: string) => new UnknownPayload(`${named} has a value of a shape Apps Script's getResponse() does not return`);
