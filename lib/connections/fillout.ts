import { describeValue, isJsonObject, isScalar, nonEmpty, UnknownPayload } from "./answers";
import type { Answer, AnswerType, AnswerValue, Delivery } from "./answers";

// Fillout's webhook body (docs/connections.md "Fillout"): one submission as Fillout's REST API
// returns it (https://www.fillout.com/help/api-reference/get-all-submissions; "Create a webhook":
// "your webhook will receive submissions in the same format as the entries in the responses
// list"), either bare or in an envelope { formId?, formName?, submission: { … } } (Fillout's
// own n8n node reads `.submission`):
//   { submissionId, submissionTime, lastUpdatedAt?, startedAt?,
//     questions: [{ id, name, type, value }], urlParameters: [{ id, name, value }],
//     calculations?: [{ id, name, type, value }], scheduling?: [{ id, name, value: {…} }],
//     payments?: [{ id, name, value: {…} }], quiz?: { score, maxScore }, documents?: [{ id, name, url }],
//     login?: { email } }
// Question types are those of Fillout's SDK (@fillout/api, FILLOUT_QUESTION_TYPES).

/** Nesting beyond this is refused: no form has it, and it would only cost stack. */
const MAX_DEPTH = 32;

// Maps, not objects: a type "constructor" must not find Object.prototype's.
const BY_QUESTION_TYPE = new Map<string, AnswerType>([
  ["EmailInput", "email"],
  ["PhoneNumber", "phone"],
  ["URLInput", "url"],
  ["ShortAnswer", "text"],
  ["LongAnswer", "text"],
  ["NumberInput", "number"],
  ["CurrencyInput", "number"],
  ["Slider", "number"],
  ["StarRating", "number"],
  ["OpinionScale", "number"],
  ["DatePicker", "date"],
  ["DateTimePicker", "date"],
  ["DateRange", "date"],
  ["TimePicker", "date"],
  ["MultipleChoice", "choice"],
  ["Dropdown", "choice"],
  ["Checkboxes", "choice"],
  ["MultiSelect", "choice"],
  ["Ranking", "choice"],
  ["ImagePicker", "choice"],
  ["Checkbox", "choice"],
  ["Switch", "choice"],
  ["FileUpload", "file"],
  ["Signature", "file"],
  ["AudioRecording", "file"],
  ["Payment", "payment"],
]);
/** Answers never kept: what a respondent typed as a password, a captcha's token. */
const DROPPED_TYPES = new Set(["Password", "Captcha"]);

type Entry = { id: string; name: string; item: Record<string, unknown> };

/** Reads a Fillout webhook body (already parsed from JSON); any other shape is refused. */
export function parseFilloutDelivery(body: unknown): Delivery {
  if (!isJsonObject(body)) throw new UnknownPayload("A Fillout delivery is a JSON object");
  const enveloped = body.submission !== undefined && body.submission !== null;
  if (enveloped && !isJsonObject(body.submission)) {
    throw new UnknownPayload(`A Fillout delivery's submission is an object, not ${describeValue(body.submission)}`);
  }
  const submission = enveloped ? (body.submission as Record<string, unknown>) : body;
  if (!Array.isArray(submission.questions)) {
    throw new UnknownPayload("A Fillout delivery has a submission with a questions list (or the questions list at the top)");
  }

  const answers: Answer[] = [];
  for (const { id, name, item } of entries(submission.questions, "question")) {
    const type = typeof item.type === "string" ? item.type : "";
    if (DROPPED_TYPES.has(type)) continue;
    const value = answerValue(item.value, `Fillout question ${describeValue(id)}`);
    const answerType = BY_QUESTION_TYPE.get(type);
    if (value !== null) answers.push({ key: id, label: name, ...(answerType && { type: answerType }), value });
  }
  // Scheduling and payments: one answer per detail of the booking or the payment, after the questions.
  for (const [list, kind] of [
    [submission.scheduling, "scheduling"],
    [submission.payments, "payments"],
  ] as const) {
    for (const { id, name, item } of entries(list, kind)) {
      if (item.value === null || item.value === undefined) continue;
      if (!isJsonObject(item.value)) throw new UnknownPayload(`A Fillout ${kind} entry's value is an object`);
      for (const [detail, sent] of Object.entries(item.value)) {
        const value = answerValue(sent, `Fillout ${kind} ${describeValue(id)}`);
        if (value === null) continue;
        const key = `${kind}.${id}.${detail}`;
        answers.push({ key, label: `${name}: ${detail}`, ...(kind === "payments" && { type: "payment" as const }), value });
      }
    }
  }
  for (const { id, name, item } of entries(submission.urlParameters, "URL parameter")) {
    const value = answerValue(item.value, `Fillout URL parameter ${describeValue(id)}`);
    if (value !== null) answers.push({ key: `urlParameters.${id}`, label: name, type: "hidden", value });
  }
  for (const { id, name, item } of entries(submission.calculations, "calculation")) {
    const value = answerValue(item.value, `Fillout calculation ${describeValue(id)}`);
    const type: AnswerType = item.type === "number" ? "number" : "text";
    if (value !== null) answers.push({ key: `calculations.${id}`, label: name, type, value });
  }
  answers.push(...quizAnswers(submission.quiz), ...documentAnswers(submission.documents), ...loginAnswers(submission.login));

  const meta: Record<string, string> = {};
  const metaSources: [string, unknown][] = [
    ["formId", enveloped ? body.formId : submission.formId],
    ["formName", enveloped ? body.formName : submission.formName],
    ["submittedAt", submission.submissionTime],
    ["startedAt", submission.startedAt],
    ["lastUpdatedAt", submission.lastUpdatedAt],
  ];
  for (const [metaName, value] of metaSources) {
    const kept = nonEmpty(value);
    if (kept !== null) meta[metaName] = kept;
  }
  return { submissionId: nonEmpty(submission.submissionId), answers, meta };
}

/** A list of { id, name, … } (absent or null: none); an entry without a text id is refused. */
function entries(list: unknown, what: string): Entry[] {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new UnknownPayload(`A Fillout delivery's ${what} entries are a list`);
  return list.map((item, index) => {
    if (!isJsonObject(item)) throw new UnknownPayload(`Fillout ${what} ${index + 1} is not an object`);
    const id = nonEmpty(item.id);
    if (id === null) throw new UnknownPayload(`Fillout ${what} ${index + 1} has no id`);
    // A question without a title has no name; its id still names it, else its place ("URL parameter 2").
    const blank = (text: unknown) => typeof text !== "string" || text.trim() === "";
    const name = !blank(item.name) ? (item.name as string) : !blank(id) ? id : `${what} ${index + 1}`;
    return { id, name, item };
  });
}

/** The value as sent; null: no answer (null, "", an empty list). Objects and lists of objects are kept as JSON text. */
function answerValue(value: unknown, where: string): AnswerValue | null {
  if (value === null || value === undefined || value === "") return null;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (isScalar(value)) return value;
  if (Array.isArray(value)) {
    const kept = value.filter((item) => item !== null && item !== "");
    if (!kept.length) return null;
    return kept.map((item) => (isScalar(item) ? String(item) : compactJson(item, 0, where)));
  }
  if (isJsonObject(value)) return Object.keys(value).length ? compactJson(value, 0, where) : null;
  return null;
}

function quizAnswers(quiz: unknown): Answer[] {
  if (!isJsonObject(quiz)) return [];
  const answers: Answer[] = [];
  for (const [part, label] of [
    ["score", "Quiz score"],
    ["maxScore", "Quiz maximum score"],
  ] as const) {
    const value = quiz[part];
    if (typeof value === "number" && Number.isFinite(value)) answers.push({ key: `quiz.${part}`, label, type: "number", value });
  }
  return answers;
}

/** Documents Fillout made from the submission (PDFs), by their URL. */
function documentAnswers(documents: unknown): Answer[] {
  return entries(documents, "document").flatMap(({ id, name, item }): Answer[] => {
    const url = nonEmpty(item.url);
    return url === null ? [] : [{ key: `documents.${id}`, label: name, type: "file", value: url }];
  });
}

/** The email a respondent logged in with, when the form asks for a login. */
function loginAnswers(login: unknown): Answer[] {
  const email = isJsonObject(login) ? nonEmpty(login.email) : null;
  return email === null ? [] : [{ key: "login.email", label: "Login email", value: email }];
}

/** JSON text of a nested value, with a depth bound: JSON.stringify would recurse without one. */
function compactJson(value: unknown, depth: number, where: string): string {
  if (depth > MAX_DEPTH) throw new UnknownPayload(`${where} is nested more than ${MAX_DEPTH} levels deep`);
  if (Array.isArray(value)) return `[${value.map((item) => compactJson(item, depth + 1, where)).join(",")}]`;
  if (isJsonObject(value)) {
    return `{${Object.entries(value)
      .map(([name, item]) => `${JSON.stringify(name)}:${compactJson(item, depth + 1, where)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
