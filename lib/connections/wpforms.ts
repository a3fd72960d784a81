import type { ReadBody } from "../http/read-body";
import { parseJson } from "../http/read-body";
import { describeValue, isJsonObject, isScalar, UnknownPayload } from "./answers";
import type { Answer, AnswerType, AnswerValue, Delivery } from "./answers";
import { formTree, treeValue } from "./wpforms-form";

// WPForms' Webhooks addon (its source, src/Process.php: fill_http_body_params_value, format,
// maybe_has_multiple_delimiter). The form's admin builds the body in Settings → Webhooks →
// Request Body: keys of their own (letters, digits, ".", "_", "-"), each mapped to a form
// field or to a custom value (smart tags allowed). Sent as JSON or as a form (Request Format),
// each key holds:
//   - the field's value as text. Address, Dropdown, Checkboxes, Likert Scale and the payment
//     choice fields hold several values one a line: the addon joins them with "||";
//   - a Date / Time field: { value, unix } (form: key[value]=…&key[unix]=…);
//   - a File Upload field: the list of its files' URLs (form: key[0]=…&key[1]=…);
//   - "" for a field that was not answered.
// Nothing says a value's type, and the body carries no id of the entry, no form id, no time:
// the submission id is the signature's (readWPFormsBody). WPForms sends each delivery once
// (no retry in the addon).

/** Where WPForms joins a field's several values (its "||"): they are split back into a list. */
export const WPFORMS_MULTIPLE = "||";

/**
 * Reads a WPForms Webhooks body: JSON, or a form as WordPress encodes the same array. The
 * submission id is the signature's HMAC (`signature`, verified before): it covers the
 * timestamp and the signed text, so the same request sent again, even re-encoded (a form's
 * `%31` for `1`), is the same submission, and two sends of the same answers are two.
 */
export function readWPFormsBody(body: ReadBody, signature: string | null = null): Delivery {
  const delivery = readUnsigned(body);
  return signature ? { ...delivery, submissionId: `wpforms:${signature}` } : delivery;
}

function readUnsigned(body: ReadBody): Delivery {
  if (body.mediaType === "application/json") return parseWPFormsDelivery(parseJson(body.bytes), "json");
  if (body.mediaType === "application/x-www-form-urlencoded") {
    const tree = formTree(body.bytes);
    if (tree === null)
      throw new UnknownPayload("A WPForms form delivery is the Request Body's keys as WordPress encodes them (key=value&…)");
    return parseWPFormsDelivery(treeValue(tree), "form");
  }
  throw new UnknownPayload("WPForms sends its Request Body as JSON or as a form (application/x-www-form-urlencoded)");
}

/** Reads the Request Body's keys (already parsed); any other shape is refused. */
export function parseWPFormsDelivery(body: unknown, format: "json" | "form" = "json"): Delivery {
  // PHP's json_encode writes an array whose keys are 0, 1, … as a list: an empty Request Body is [].
  const keys = Array.isArray(body) ? Object.fromEntries(body.map((value, index) => [String(index), value])) : body;
  if (!isJsonObject(keys)) throw new UnknownPayload("A WPForms delivery is an object of the Request Body's keys");
  const answers = Object.entries(keys).flatMap(([key, value], index): Answer[] => {
    const read = answerOf(value);
    if (read === undefined)
      throw new UnknownPayload(`WPForms key ${index + 1} has a value the Webhooks addon does not send (${describeValue(value)})`);
    if (read === null) return [];
    return [{ key, label: key, ...(read.type && { type: read.type }), value: read.value }];
  });
  return { submissionId: null, answers, meta: { format } };
}

type Read = { value: AnswerValue; type?: AnswerType };

/** A key's answer; null: no answer (empty); undefined: a shape the addon does not send. */
function answerOf(value: unknown): Read | null | undefined {
  if (value === null || value === undefined || value === "") return null;
  if (typeof value === "string") return present(splitMultiple(value));
  if (typeof value === "number") return Number.isFinite(value) ? { value } : undefined;
  if (typeof value === "boolean") return { value };
  // A File Upload field: its files' URLs.
  if (Array.isArray(value)) return value.every(isScalar) ? present(value.map(String).filter((item) => item !== "")) : undefined;
  // A Date / Time field: { value: "06/16/2025 10:30 am", unix: 1750069800 }; the text as the respondent chose it.
  if (isJsonObject(value) && typeof value.value === "string" && Object.keys(value).every((name) => name === "value" || name === "unix")) {
    return value.value === "" ? null : { value: value.value, type: "date" };
  }
  return undefined;
}

/** "Web design||SEO" → ["Web design", "SEO"]; a text without "||" stays a text. */
function splitMultiple(text: string): AnswerValue {
  if (!text.includes(WPFORMS_MULTIPLE)) return text;
  return text.split(WPFORMS_MULTIPLE).filter((item) => item !== "");
}

const present = (value: AnswerValue): Read | null => (Array.isArray(value) && value.length === 0 ? null : { value });
