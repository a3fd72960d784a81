import { createHash } from "node:crypto";
import type { RawField } from "../http/read-body";
import {
  isJsonObject,
  isScalar,
  MAX_ANSWERS_PER_DELIVERY,
  pushAnswer,
  TooManyAnswers,
  UnknownPayload,
  type Answer,
  type Delivery,
} from "./answers";

// Generic JSON: what Zapier, Make, n8n, HubSpot workflows or a team's own code send. Any
// JSON object, flat or nested, or urlencoded/multipart fields. Every answer is named by
// its path: { contact: { email } } answers "contact.email", an array of objects answers
// "items.0.name"; an array of plain values is one answer holding the list. The builder
// says nothing about types: map-answers.ts reads the paths as labels.

export type GenericOptions = {
  /** Where the sender puts its own id of the submission: a key, or a path such as "submission.id". */
  submissionIdPath?: string;
};

/** Nesting beyond this is refused: no form has it, and it would only cost stack. */
export const MAX_DEPTH = 32;
/** A longer id is replaced by its digest: ids are stored and compared, not read. */
const MAX_ID_LENGTH = 200;

type Scalar = string | number | boolean;

/** Reads a JSON body (already parsed); anything but an object is refused. */
export function parseGenericJson(body: unknown, options: GenericOptions = {}): Delivery {
  if (!isJsonObject(body)) throw new UnknownPayload("A Generic JSON delivery is a JSON object of fields");
  const answers: Answer[] = [];
  flatten(body, [], answers, 0);
  const configured = options.submissionIdPath ? idAt(body, options.submissionIdPath) : null;
  return {
    submissionId: configured ?? `sha256:${digest(canonicalJson(body))}`,
    answers,
    meta: { format: "json" },
  };
}

/**
 * Reads urlencoded or multipart fields, in the order sent. A name sent more than once,
 * or ending in "[]", is one answer holding the list. A non-empty file is named by its
 * file name (its bytes are not kept); an empty file input left unused is no answer.
 */
export function parseGenericFields(fields: Iterable<RawField>, options: GenericOptions = {}): Delivery {
  const byName = new Map<string, { values: Scalar[]; list: boolean }>();
  const canonical: [string, Scalar][] = [];
  for (const [sent, raw] of fields) {
    const list = sent.length > 2 && sent.endsWith("[]");
    const name = list ? sent.slice(0, -2) : sent;
    const value = fieldValue(raw);
    if (value === null) continue;
    canonical.push([name, value]);
    const entry = byName.get(name);
    if (entry) {
      entry.values.push(value);
      entry.list = true;
    } else {
      byName.set(name, { values: [value], list });
    }
  }
  if (byName.size > MAX_ANSWERS_PER_DELIVERY) throw new TooManyAnswers();
  const answers = [...byName].flatMap(([name, { values, list }]): Answer[] => {
    const kept = values.filter((value) => value !== "");
    if (!kept.length || name === "") return [];
    return [{ key: name, label: name, value: list ? kept.map(String) : kept[0]! }];
  });
  const configured = options.submissionIdPath ? idOf(byName.get(options.submissionIdPath)?.values[0]) : null;
  // Sorted by name (a stable sort keeps a list's order), so a sender that orders its fields differently on a retry is the same delivery.
  const sorted = canonical.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    submissionId: configured ?? `sha256:${digest(JSON.stringify(sorted))}`,
    answers,
    meta: { format: "form" },
  };
}

function flatten(value: unknown, path: string[], answers: Answer[], depth: number): void {
  if (depth > MAX_DEPTH) throw new UnknownPayload(`A Generic JSON delivery is nested at most ${MAX_DEPTH} levels deep`);
  if (value === null || value === undefined || value === "") return;
  const key = path.join(".");
  if (isScalar(value)) {
    pushAnswer(answers, { key, label: key, value });
    return;
  }
  if (Array.isArray(value)) {
    const present = value.filter((item) => item !== null && item !== "");
    if (present.every(isScalar)) {
      if (present.length) pushAnswer(answers, { key, label: key, value: present.map(String) });
      return;
    }
    value.forEach((item, index) => flatten(item, [...path, String(index)], answers, depth + 1));
    return;
  }
  if (isJsonObject(value)) {
    for (const [name, item] of Object.entries(value)) flatten(item, [...path, name], answers, depth + 1);
    return;
  }
  throw new UnknownPayload("A Generic JSON delivery holds only JSON values");
}

/** The value at a dotted path of the body (array items by index), as an id; null when absent. */
function idAt(body: Record<string, unknown>, path: string): string | null {
  let at: unknown = body;
  for (const segment of path.split(".")) {
    if (isJsonObject(at) && Object.hasOwn(at, segment)) at = at[segment];
    else if (Array.isArray(at) && /^\d+$/.test(segment)) at = at[Number(segment)];
    else return null;
  }
  return idOf(at);
}

function idOf(value: unknown): string | null {
  if (typeof value !== "string" && typeof value !== "number") return null;
  const id = String(value).trim();
  if (id === "" || !id.isWellFormed()) return null;
  return id.length > MAX_ID_LENGTH ? `sha256:${digest(id)}` : id;
}

function fieldValue(raw: unknown): Scalar | null {
  if (raw === null || raw === undefined) return null;
  if (isScalar(raw)) return raw;
  if (typeof Blob !== "undefined" && raw instanceof Blob) {
    const name = raw instanceof File ? raw.name : "";
    if (raw.size === 0 && !name) return null;
    return `[file not stored: ${name || "unnamed"}]`;
  }
  // Not what a form sends (readFields gives texts and files): kept as its JSON text.
  return canonicalJson(raw);
}

/** JSON with every object's keys sorted: the same for the same content, whatever the order sent. */
function canonicalJson(value: unknown, depth = 0): string {
  if (depth > MAX_DEPTH) throw new UnknownPayload(`A Generic JSON delivery is nested at most ${MAX_DEPTH} levels deep`);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item, depth + 1)).join(",")}]`;
  if (isJsonObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key], depth + 1)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
