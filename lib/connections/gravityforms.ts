import { fieldsOf, parseJson, type RawField, type ReadBody } from "../http/read-body";
import { describeValue, isJsonObject, isScalar, UnknownPayload } from "./answers";
import type { Answer, AnswerValue, Delivery } from "./answers";

// Gravity Forms' Webhooks Add-On (https://docs.gravityforms.com/triggering-webhooks-form-submissions/;
// its source, class-gf-webhooks.php process_feed and get_request_data): a feed posts, for
// Request Body "All Fields", the Entry Object itself (https://docs.gravityforms.com/entry-object/),
// and for "Select Fields" the keys the admin names under Field Values, each with the value
// of the field (or entry property) chosen for it. Request Format JSON posts json_encode of
// that array (Content-Type: application/json); FORM posts it as WordPress posts an array
// body, urlencoded (PHP's http_build_query, which leaves out null values).
//
// The entry is flat: its own properties (id, form_id, date_created, source_url, ip,
// user_agent, status, payment …) and each answer under its field or input id ("1", "2.3"
// for a name's first name, "4.1" for a checkbox's first choice), with no label and no
// type. The id is the answer's key and label: the admin maps "2.3" once on the
// connection's page. Nothing about a value's type is guessed from its id.

/**
 * The Entry Object's own properties: metadata, never answers. The properties of
 * https://docs.gravityforms.com/entry-object/, which are the gf_entry table's columns
 * (Gravity Forms 2.10, forms_model.php get_lead_db_columns).
 */
export const ENTRY_PROPERTIES: ReadonlySet<string> = new Set([
  "id",
  "form_id",
  "post_id",
  "date_created",
  "date_updated",
  "is_starred",
  "is_read",
  "ip",
  "source_url",
  "user_agent",
  "currency",
  "payment_status",
  "payment_date",
  "payment_amount",
  "payment_method",
  "transaction_id",
  "is_fulfilled",
  "created_by",
  "transaction_type",
  "status",
  "source_id",
]);

/** An entry id is the database's: a positive whole number (sent as text or as a number). */
const ENTRY_ID = /^[1-9]\d{0,19}$/;

/** Reads a delivery as the Webhooks Add-On sends it: JSON, or a FORM (urlencoded) body. */
export async function parseGravityFormsBody(body: ReadBody): Promise<Delivery> {
  if (body.mediaType === "application/json") return parseGravityFormsJson(parseJson(body.bytes));
  return parseGravityFormsFields(await fieldsOf(body));
}

/** Reads a JSON body (already parsed): the entry, or the selected fields; any other shape is refused. */
export function parseGravityFormsJson(body: unknown): Delivery {
  if (!isJsonObject(body)) {
    throw new UnknownPayload("A Gravity Forms delivery is a JSON object: the entry (All Fields) or the keys under Field Values");
  }
  return readEntry(Object.entries(body));
}

/**
 * Reads a FORM body's fields, in the order sent. A name sent more than once is one
 * answer holding the list (http_build_query never repeats a name; a filter could).
 */
export function parseGravityFormsFields(fields: Iterable<RawField>): Delivery {
  const byName = new Map<string, string[]>();
  for (const [name, value] of fields) {
    if (typeof value !== "string") throw new UnknownPayload("A Gravity Forms FORM delivery holds text values, not files");
    const values = byName.get(name);
    if (values) values.push(value);
    else byName.set(name, [value]);
  }
  return readEntry([...byName].map(([name, values]) => [name, values.length === 1 ? values[0] : values]));
}

function readEntry(pairs: [string, unknown][]): Delivery {
  if (!pairs.length) throw new UnknownPayload("A Gravity Forms delivery holds the entry or the selected fields: this one is empty");
  const answers: Answer[] = [];
  const meta: Record<string, string> = {};
  let submissionId: string | null = null;
  // "All Fields" sends the entry, with its id and form_id; "Select Fields" sends keys the
  // admin named, which are answers (a key named "status" or "ip" is a question's), but for
  // `id`: the Entry ID, when the admin picked it under that key, is the submission's id.
  const entry = pairs.some(([key]) => key === "form_id");
  pairs.forEach(([key, value], index) => {
    if (key === "id" || (entry && ENTRY_PROPERTIES.has(key))) {
      const text = propertyText(key, value);
      if (key === "id") submissionId = entryId(text);
      // The key is one of ENTRY_PROPERTIES: never "__proto__" or another name of Object.prototype.
      else if (text !== null) meta[key] = text;
      return;
    }
    const read = answerValue(value);
    if (read === undefined) throw new UnknownPayload(`Gravity Forms value ${index + 1} is not text, a number or a list of them`);
    if (read !== null) answers.push({ key, label: key, value: read });
  });
  return { submissionId: siteScoped(submissionId, meta.source_url), answers, meta };
}

/**
 * An entry id is unique within one WordPress site only: with the host of the entry's
 * source_url before it, two sites posting to one connection (staging and production) never
 * share a submission id, so neither's lead is answered as the other's.
 */
function siteScoped(id: string | null, sourceUrl: string | undefined): string | null {
  if (id === null || sourceUrl === undefined) return id;
  const host = URL.canParse(sourceUrl) ? new URL(sourceUrl).host : "";
  return host ? `${host}#${id}` : id;
}

/** An entry property's value as text; null when empty. An object is no property's value. */
function propertyText(key: string, value: unknown): string | null {
  if (value === null || value === "") return null;
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean") return value ? "1" : "0";
  throw new UnknownPayload(`A Gravity Forms entry's ${key} is text or a number, not ${describeValue(value)}`);
}

/** The entry's id: the submission's id, the same each time the feed sends the entry. */
function entryId(text: string | null): string | null {
  if (text === null) return null;
  if (!ENTRY_ID.test(text)) throw new UnknownPayload(`A Gravity Forms entry id is a whole number, not ${describeValue(text)}`);
  return text;
}

/** A field's value; null: no answer ("", null, an empty list); undefined: not a shape an entry holds. */
function answerValue(value: unknown): AnswerValue | null | undefined {
  if (value === null || value === "") return null;
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (Array.isArray(value) && value.every((item) => item === null || isScalar(item))) {
    const kept = value.filter((item) => item !== null && item !== "").map(String);
    return kept.length ? kept : null;
  }
  return undefined;
}
