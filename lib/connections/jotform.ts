import type { RawField } from "../http/read-body";
import { describeValue, isJsonObject, isScalar, nonEmpty, UnknownPayload } from "./answers";
import type { Answer, Delivery } from "./answers";

// Jotform's webhook (docs/connections.md "Jotform"): a multipart/form-data POST whose fields
// are metadata (formID, submissionID, formTitle, ip, type, username, pretty, webhookURL …)
// and `rawRequest`, the form's own POST as JSON text. In it each question is `q<id>_<name>`
// (name: Jotform's unique name of the question, its first words camelCased, with the id
// appended when two would clash: "q4_email4"); composite questions are objects of their
// inputs' names ({first, last}, {area, phone} or {full}, {addr_line1, city, …},
// {month, day, year}); checkboxes are lists; uploaded files are listed under temp_upload as
// `q<id>_<name>` and their URLs sent under the bare name. Everything else in rawRequest
// (slug, path, event_id, jsExecutionTracker …) is the page's, not an answer. The body
// carries no question text and no control type: the label is read from the unique name.
// (Sources: Jotform's own webhook example jotform/api-use-cases, n8n's JotFormTrigger,
// real deliveries kept in Zulip's Jotform integration tests.)

const QUESTION = /^q(\d+)_(.+)$/;
/** An answer nested deeper than this is refused: no form has it, and it would only cost stack. */
const MAX_DEPTH = 32;

// Sets of subfield names, by the input names of Jotform's own form markup.
const NAME_PARTS = new Set(["prefix", "first", "middle", "last", "suffix"]);
const PHONE_PARTS = new Set(["area", "phone", "full"]);
const ADDRESS_PARTS = new Set(["addr_line1", "addr_line2", "city", "state", "postal", "country"]);
const DATE_PARTS = new Set(["month", "day", "year"]);

type Scalar = string | number | boolean;

/** Reads a Jotform webhook's fields (multipart, urlencoded or JSON, as fieldsOf gives them); any other shape is refused. */
export function parseJotformDelivery(fields: Iterable<RawField>): Delivery {
  const byName = new Map<string, unknown[]>();
  for (const [name, value] of fields) {
    const values = byName.get(name);
    if (values) values.push(value);
    else byName.set(name, [value]);
  }
  const raw = byName.get("rawRequest");
  if (!raw) throw new UnknownPayload("A Jotform delivery has a rawRequest field holding the answers as JSON");
  if (raw.length > 1) throw new UnknownPayload("A Jotform delivery has one rawRequest field, not several");
  if (typeof raw[0] !== "string") throw new UnknownPayload(`A Jotform delivery's rawRequest is JSON text, not ${describeValue(raw[0])}`);
  let request: unknown;
  try {
    request = JSON.parse(raw[0]);
  } catch {
    throw new UnknownPayload("A Jotform delivery's rawRequest is JSON");
  }
  if (!isJsonObject(request)) throw new UnknownPayload("A Jotform delivery's rawRequest is a JSON object of answers");

  const files = fileQuestions(request.temp_upload);
  const answers: Answer[] = [];
  for (const [key, value] of Object.entries(request)) {
    const question = QUESTION.exec(key);
    if (question) {
      answers.push(...questionAnswers(key, readableLabel(question[1]!, question[2]!), value));
      continue;
    }
    // An upload's URLs, under the bare name of a question listed in temp_upload.
    const fileKey = files.get(key);
    if (fileKey === undefined || Object.hasOwn(request, fileKey)) continue;
    const label = readableLabel(QUESTION.exec(fileKey)![1]!, key);
    const urls = listValue(value);
    if (urls) answers.push({ key: fileKey, label, type: "file", value: urls });
  }

  const first = (name: string) => nonEmpty(byName.get(name)?.[0]);
  const meta: Record<string, string> = {};
  for (const [metaName, field] of [
    ["formId", "formID"],
    ["formTitle", "formTitle"],
    ["type", "type"],
    ["ip", "ip"],
  ] as const) {
    const kept = first(field);
    if (kept !== null) meta[metaName] = kept;
  }
  return { submissionId: first("submissionID"), answers, meta };
}

/** Bare name → `q<id>_<name>` for each upload question listed in temp_upload. */
function fileQuestions(tempUpload: unknown): Map<string, string> {
  const files = new Map<string, string>();
  if (!isJsonObject(tempUpload)) return files;
  for (const key of Object.keys(tempUpload)) {
    const question = QUESTION.exec(key);
    if (question && !files.has(question[2]!)) files.set(question[2]!, key);
  }
  return files;
}

/**
 * A question's unique name as words: "fullName" → "Full name", "email4" (question 4) →
 * "Email". Jotform sends no question text; the name is made of its first words.
 */
export function readableLabel(id: string, name: string): string {
  const unsuffixed = name.length > id.length && name.endsWith(id) ? name.slice(0, -id.length) : name;
  const words = unsuffixed
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_\s]+/g, " ")
    .trim()
    .toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : name;
}

function questionAnswers(key: string, label: string, value: unknown): Answer[] {
  if (value === null || value === undefined || value === "") return [];
  if (isScalar(value)) return [scalarAnswer(key, label, value)];
  if (Array.isArray(value)) {
    const list = listValue(value);
    return list ? [{ key, label, value: list }] : [];
  }
  if (!isJsonObject(value)) return [];
  const parts = new Map<string, unknown>();
  for (const [part, sent] of Object.entries(value)) {
    if (sent !== null && sent !== "" && !(Array.isArray(sent) && sent.length === 0)) parts.set(part, sent);
  }
  if (parts.size === 0) return [];
  const names = Object.keys(value);
  const text = (part: string) => (typeof parts.get(part) === "string" ? (parts.get(part) as string) : null);
  const only = (allowed: Set<string>) => names.every((name) => allowed.has(name));

  if (only(NAME_PARTS) && (names.includes("first") || names.includes("last")) && [...parts.values()].every(isScalar)) {
    return [...parts].map(([part, sent]) => ({
      key: `${key}[${part}]`,
      label: `${label} (${part})`,
      ...(part === "first" ? { type: "first_name" as const } : part === "last" ? { type: "last_name" as const } : {}),
      value: String(sent),
    }));
  }
  if (only(PHONE_PARTS) && (text("full") ?? text("phone")) !== null) {
    const area = text("area");
    const phone = text("full") ?? (area ? `(${area}) ${text("phone")}` : text("phone")!);
    return [{ key, label, type: "phone", value: phone }];
  }
  if (only(ADDRESS_PARTS) && [...parts.values()].every(isScalar)) {
    return [{ key, label, type: "text", value: [...parts.values()].map(String).join(", ") }];
  }
  if (only(DATE_PARTS) && names.length === 3 && [...DATE_PARTS].every((part) => /^\d{1,4}$/.test(text(part) ?? ""))) {
    const pad = (part: string, length: number) => text(part)!.padStart(length, "0");
    return [{ key, label, type: "date", value: `${pad("year", 4)}-${pad("month", 2)}-${pad("day", 2)}` }];
  }
  // Any other composite (an appointment, a widget): one "input: value" line per answered input.
  return [{ key, label, value: [...parts].map(([part, sent]) => `${part}: ${partText(sent)}`) }];
}

/** A text, number or true/false as sent; a data: URL (a drawn signature) is named, its bytes are not kept. */
function scalarAnswer(key: string, label: string, value: Scalar): Answer {
  const dataUrl = typeof value === "string" ? /^data:([\w.+-]+\/[\w.+-]+)?[^,]*;base64,/i.exec(value) : null;
  if (dataUrl) return { key, label, type: "file", value: `[data URL not stored: ${dataUrl[1] ?? "unknown type"}]` };
  return { key, label, value };
}

/** A list as texts, empty items left out; null when nothing is left. A list of other things is kept as JSON text. */
function listValue(value: unknown): string[] | null {
  const items = Array.isArray(value) ? value : [value];
  const kept = items.filter((item) => item !== null && item !== undefined && item !== "").map(partText);
  return kept.length ? kept : null;
}

function partText(value: unknown): string {
  if (isScalar(value)) return String(value);
  if (Array.isArray(value) && value.every(isScalar)) return value.join(", ");
  return compactJson(value, 0);
}

/** JSON text of a nested value, with a depth bound: JSON.stringify would recurse without one. */
function compactJson(value: unknown, depth: number): string {
  if (depth > MAX_DEPTH) throw new UnknownPayload(`A Jotform answer is nested at most ${MAX_DEPTH} levels deep`);
  if (Array.isArray(value)) return `[${value.map((item) => compactJson(item, depth + 1)).join(",")}]`;
  if (isJsonObject(value)) {
    return `{${Object.entries(value)
      .map(([name, item]) => `${JSON.stringify(name)}:${compactJson(item, depth + 1)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
