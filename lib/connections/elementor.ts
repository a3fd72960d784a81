import { fieldsOf, type RawField, type ReadBody } from "../http/read-body";
import { describeValue, UnknownPayload } from "./answers";
import type { Answer, AnswerType, AnswerValue, Delivery } from "./answers";

// Elementor Pro's Form widget, Actions After Submit → Webhook (its source, the Webhook
// action modules/forms/actions/webhook.php and Form_Record, modules/forms/classes/
// form-record.php, as the GPL copy github.com/proelements/proelements publishes them):
// the action posts an array body, which WordPress sends urlencoded (PHP's http_build_query).
//
// Advanced Data off: each field under its label ("No Label <id>" without one) with its
// value as text (a checkbox's choices joined with ", "), then the metadata rows under
// their titles (Date, Time, Page URL, Page Title, User Agent, Remote IP, Powered by: the
// ones the form's Meta Data setting picks), then form_id and form_name.
// Advanced Data on: form[id], form[name]; fields[<id>][id|type|title|value|raw_value|required]
// (raw_value a list for several choices: fields[<id>][raw_value][0]); meta[<key>][title|value].
// Elementor sends no submission id: the intake uses a digest of the body.

/** Elementor's field types (the widget's Type control) → answer types; an unlisted type is left untyped. */
const BY_FIELD_TYPE = new Map<string, AnswerType>([
  ["email", "email"],
  ["tel", "phone"],
  ["url", "url"],
  ["text", "text"],
  ["textarea", "text"],
  ["number", "number"],
  ["date", "date"],
  ["time", "date"],
  ["select", "choice"],
  ["radio", "choice"],
  ["checkbox", "choice"],
  ["acceptance", "choice"],
  ["upload", "file"],
  ["hidden", "hidden"],
]);

/** Fields that hold no answer (layout, anti-spam) or one never kept (a password). */
const NO_ANSWER_TYPES: ReadonlySet<string> = new Set(["html", "step", "honeypot", "recaptcha", "recaptcha_v3", "password"]);

/** Elementor's metadata rows: their title (Advanced Data off) → their key (meta[<key>]), the name kept in `meta`. */
const META_TITLES = new Map([
  ["Date", "date"],
  ["Time", "time"],
  ["Page URL", "page_url"],
  ["Page Title", "page_title"],
  ["User Agent", "user_agent"],
  ["Remote IP", "remote_ip"],
  ["Powered by", "credit"],
]);
const META_KEYS: ReadonlySet<string> = new Set(META_TITLES.values());

/** A field's properties that are read; the others Elementor sends (required, upload's file_types …) are not. */
const FIELD_PROPERTIES: ReadonlySet<string> = new Set(["id", "type", "title", "value", "raw_value", "required"]);

/** Reads a delivery as Elementor Pro sends it: a form body; JSON is not Elementor's. */
export async function parseElementorBody(body: ReadBody): Promise<Delivery> {
  if (body.mediaType === "application/json") {
    throw new UnknownPayload("An Elementor Pro delivery is a form body (application/x-www-form-urlencoded), not JSON");
  }
  return parseElementorFields(await fieldsOf(body));
}

/** Reads a form body's fields, in the order sent; any other shape is refused. */
export function parseElementorFields(fields: Iterable<RawField>): Delivery {
  const pairs: [string, string][] = [];
  for (const [name, value] of fields) {
    if (typeof value !== "string") throw new UnknownPayload("An Elementor Pro delivery holds text values, not files");
    pairs.push([name, value]);
  }
  const advanced = pairs.some(([name]) => /^(form|fields|meta)\[/.test(name));
  return advanced ? readAdvanced(pairs) : readSimple(pairs);
}

/**
 * Advanced Data off: labels and values; the form's id and name apart. A metadata row's title
 * (Date, Page URL …) may also be a question's label: such rows are answers typed `meta`,
 * ignored unless the team maps them.
 */
function readSimple(pairs: [string, string][]): Delivery {
  const meta: Record<string, string> = {};
  const byLabel = new Map<string, string[]>();
  for (const [name, value] of pairs) {
    if (name === "form_id" || name === "form_name") {
      if (value !== "") meta[name] = value;
      continue;
    }
    // A field without a label is sent as "No Label <id>": an empty name is no field's.
    if (name === "") continue;
    const values = byLabel.get(name);
    if (values) values.push(value);
    else byLabel.set(name, [value]);
  }
  if (!meta.form_id) throw new UnknownPayload("An Elementor Pro delivery names its form: form_id (or form[id] with Advanced Data)");
  const answers = [...byLabel].flatMap(([label, values]): Answer[] => {
    const kept = values.filter((value) => value !== "");
    if (!kept.length) return [];
    return [{ key: label, label, ...(META_TITLES.has(label) && { type: "meta" as const }), value: kept.length === 1 ? kept[0]! : kept }];
  });
  return { submissionId: null, answers, meta };
}

type Field = { type?: string; title?: string; value?: string; list?: string[] };

/** Advanced Data on: form[…], fields[<id>][…] and meta[<key>][…] only. */
function readAdvanced(pairs: [string, string][]): Delivery {
  const meta: Record<string, string> = {};
  // A Map: a field id "constructor" or "__proto__" is a field like any other.
  const fields = new Map<string, Field>();
  for (const [name, value] of pairs) {
    const path = bracketPath(name) ?? [];
    const [head, first = "", second = ""] = path;
    if (head === "form" && path.length === 2 && (first === "id" || first === "name")) {
      if (value !== "") meta[first === "id" ? "form_id" : "form_name"] = value;
    } else if (head === "meta" && path.length === 3 && (second === "title" || second === "value")) {
      // Only Elementor's own rows are kept: a key from the body is never a property name of `meta`.
      if (second === "value" && META_KEYS.has(first) && value !== "") meta[first] = value;
    } else if (head === "fields" && first !== "" && path.length >= 3) {
      // Properties not read here (required, an upload's file_types …) are left as they are.
      if (FIELD_PROPERTIES.has(second)) readFieldPart(fields, path, value, name);
    } else {
      throw new UnknownPayload(
        `An Elementor Pro delivery with Advanced Data has form[…], fields[<id>][…] and meta[<key>][…] only, not ${describeValue(name)}`,
      );
    }
  }
  if (!meta.form_id) throw new UnknownPayload("An Elementor Pro delivery names its form: form[id] (or form_id without Advanced Data)");
  const answers = [...fields].flatMap(([id, field]): Answer[] => {
    const type = field.type ?? "";
    if (NO_ANSWER_TYPES.has(type)) return [];
    const value = fieldValue(field);
    if (value === null) return [];
    const answerType = BY_FIELD_TYPE.get(type);
    return [{ key: id, label: field.title || id, ...(answerType && { type: answerType }), value }];
  });
  return { submissionId: null, answers, meta };
}

/** One part of fields[<id>][<property>]: a text, or one of raw_value's list (fields[<id>][raw_value][<n>]). */
function readFieldPart(fields: Map<string, Field>, path: string[], value: string, name: string): void {
  const [, id = "", property, index] = path;
  let field = fields.get(id);
  if (!field) fields.set(id, (field = {}));
  if (property === "raw_value" && path.length === 4 && /^\d+$/.test(index!)) {
    (field.list ??= []).push(value);
    return;
  }
  if (path.length !== 3) throw new UnknownPayload(`An Elementor Pro field's ${property} is one value, not ${describeValue(name)}`);
  if (property === "type") field.type = value;
  else if (property === "title") field.title = value;
  else if (property === "value") field.value = value;
}

/**
 * The answer: several choices stay a list (raw_value); otherwise the value Elementor
 * cleaned (an upload's value holds the files' URLs, its raw_value their paths on the server).
 */
function fieldValue(field: Field): AnswerValue | null {
  if (field.list && field.type !== "upload") {
    const kept = field.list.filter((item) => item !== "");
    if (kept.length) return kept;
  }
  return field.value ? field.value : null;
}

/** "fields[name][raw_value][0]" → ["fields", "name", "raw_value", "0"]; null for a name without brackets. */
function bracketPath(name: string): string[] | null {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])+)$/.exec(name);
  if (!match) return null;
  return [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((part) => part[1]!)];
}
