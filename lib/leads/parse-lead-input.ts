import type { z } from "zod";
import { ATTRIBUTION_FIELD_NAMES } from "../attribution/attribution-fields";
import { validationError } from "../http/api-error";
import type { RawField } from "../http/read-body";
import { KNOWN_FIELDS, LIMITS, leadInputSchema } from "./lead-input-schema";
import { oneLine } from "./one-line";

const ATTRIBUTION_NAMES = new Set(ATTRIBUTION_FIELD_NAMES);

export type ExtraFieldScalar = string | number | boolean;
/** A scalar, or the values of a repeated field (a checkbox group), in the order sent. */
export type ExtraFieldValue = ExtraFieldScalar | ExtraFieldScalar[];

/** The validated body of create_lead: known fields as text, everything else in extraFields. */
export type LeadInput = {
  name: string;
  email?: string;
  phone?: string;
  mobile_no?: string;
  country_code?: string;
  source?: string;
  organization?: string;
  job_title?: string;
  website?: string;
  territory?: string;
  industry?: string;
  annual_revenue?: string;
  no_of_employees?: string;
  currency?: string;
  utm_source?: string;
  utm_medium?: string;
  utm_campaign?: string;
  utm_term?: string;
  utm_content?: string;
  extraFields: Record<string, ExtraFieldValue>;
};

/** One parameter as it arrived: a JSON value, or a form-data string or file. */

const quote = (name: string) => JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

function describe(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (isFile(value)) return "a file";
  return "an object";
}

const isFile = (value: unknown): value is File => typeof Blob !== "undefined" && value instanceof Blob;

/**
 * Reads one value: null for "not sent", else a scalar. Rejects what a field cannot hold.
 * A file input left empty (a part with no file name and no bytes, which browsers send
 * for every unused `<input type="file">`) is "not sent"; a file with content is named in
 * an extra field (its bytes are not stored) so that a form with an upload keeps its lead.
 */
function scalar(name: string, value: unknown, known: boolean): ExtraFieldScalar | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") {
    if (value.includes("\u0000")) throw validationError(`Field ${quote(name)} contains a null byte`);
    // A lone UTF-16 surrogate (from a JSON "\ud800" escape) has no UTF-8 form: the
    // database would store U+FFFD instead of what was sent.
    if (!value.isWellFormed()) throw validationError(`Field ${quote(name)} contains invalid Unicode`);
    // A known field is one line (./one-line.ts): line breaks and control characters become spaces.
    const kept = known ? oneLine(value) : value;
    return kept.trim() === "" ? null : kept;
  }
  if (typeof value === "number" || typeof value === "boolean") return value;
  if (isFile(value) && value.size === 0 && !(value as File).name) return null;
  if (isFile(value) && !known) return fileNote(value);
  throw validationError(`Field ${quote(name)} must be a single text value, not ${describe(value)}`);
}

function fileNote(file: Blob): string {
  const name = (file as File).name || "unnamed";
  const size = file.size < 1024 ? `${file.size} bytes` : `${Math.ceil(file.size / 1024)} KiB`;
  return `[file not stored: ${name.isWellFormed() ? name.slice(0, 200) : "unnamed"}, ${size}]`;
}

/** "interests[]" (PHP and jQuery's name for a multi-value field) is the field "interests". */
function baseName(name: string): { base: string; listSyntax: boolean } {
  return name.length > 2 && name.endsWith("[]") ? { base: name.slice(0, -2), listSyntax: true } : { base: name, listSyntax: false };
}

function assertFieldName(name: string): void {
  if (name.trim() === "") throw validationError("Field names must not be empty");
  if (CONTROL_CHARS.test(name)) throw validationError(`Field name ${quote(name)} contains control characters`);
  if (!name.isWellFormed()) throw validationError(`Field name ${quote(name)} contains invalid Unicode`);
}

/** `repeated`: the name came more than once; `list`: it is a list in any way it can be. */
type Gathered = { values: unknown[]; list: boolean; repeated: boolean };

/**
 * Groups the parameters by field, in the order first sent. A field is a list when it is
 * sent more than once, with the `[]` suffix, or as a JSON array.
 */
function gather(fields: Iterable<RawField>): Map<string, Gathered> {
  const byName = new Map<string, Gathered>();
  for (const [name, raw] of fields) {
    assertFieldName(name);
    const { base, listSyntax } = baseName(name);
    const values = Array.isArray(raw) ? raw : [raw];
    const entry = byName.get(base);
    if (entry) {
      entry.values.push(...values);
      entry.list = entry.repeated = true;
    } else {
      byName.set(base, { values: [...values], list: listSyntax || Array.isArray(raw), repeated: false });
    }
  }
  return byName;
}

/**
 * Turns the body's parameters into a LeadInput, enforcing spec 2.1/2.2 and the
 * documented limits. Throws a 422 ApiError naming the first offending field.
 * Repeated known fields are ambiguous (which email is the lead's?) and refused; repeated
 * extra fields are kept as lists, as ordinary HTML forms send them (checkbox groups).
 */
export function parseLeadInput(fields: Iterable<RawField>): LeadInput {
  const known: [string, string | number][] = [];
  const extra: [string, ExtraFieldValue][] = [];

  for (const [name, { values, list, repeated }] of gather(fields)) {
    if (KNOWN_FIELDS.has(name)) {
      if (repeated) throw validationError(`Field ${quote(name)} was sent more than once`);
      if (list) throw validationError(`Field ${quote(name)} must be a single text value, not a list`);
      const value = scalar(name, values[0], true);
      if (value === null) continue;
      const keepNumber = typeof value === "number" && (name === "annual_revenue" || name === "no_of_employees");
      known.push([name, keepNumber ? value : String(value).trim()]);
      continue;
    }
    if (name.length > LIMITS.extraFieldKey) {
      throw validationError(`Field name ${quote(name)} is too long (at most ${LIMITS.extraFieldKey} characters)`);
    }
    const kept = values.flatMap((value) => {
      if (Array.isArray(value)) throw validationError(`Field ${quote(name)} must hold text values, not a nested list`);
      const read = scalar(name, value, false);
      return read === null ? [] : [read];
    });
    if (!kept.length) continue;
    // Checked here rather than left to the schema: zod reports a failed union member as
    // "Invalid input", which names neither the limit nor what to fix.
    if (kept.length > LIMITS.extraFieldListItems) {
      throw validationError(`Field ${quote(name)} has too many values (at most ${LIMITS.extraFieldListItems})`);
    }
    if (kept.some((value) => typeof value === "string" && value.length > LIMITS.extraFieldValue)) {
      throw validationError(`Field ${quote(name)} is too long (at most ${LIMITS.extraFieldValue} characters)`);
    }
    extra.push([name, list ? kept : kept[0]!]);
  }

  // The attribution fields (at most 25 names, docs/attribution.md) are not counted: a long
  // form with the attribution script's fields added must not lose its lead.
  const counted = extra.filter(([name]) => !ATTRIBUTION_NAMES.has(name)).length;
  if (counted > LIMITS.extraFieldCount) {
    throw validationError(`Too many extra fields: ${counted} sent, at most ${LIMITS.extraFieldCount} accepted`);
  }

  const candidate = Object.fromEntries([...known, ...extra]);
  const result = leadInputSchema.safeParse(candidate, { reportInput: true });
  if (!result.success) throw validationError(issueMessage(result.error.issues[0]!));

  const input = Object.fromEntries(known) as Omit<LeadInput, "extraFields">;
  if (input.annual_revenue !== undefined) input.annual_revenue = String(input.annual_revenue);
  if (input.no_of_employees !== undefined) input.no_of_employees = String(input.no_of_employees);
  // Object.fromEntries defines own properties, so names such as __proto__ stay plain data.
  return { ...input, extraFields: Object.fromEntries(extra) };
}

function issueMessage(issue: z.core.$ZodIssue): string {
  const field = String(issue.path[0] ?? "body");
  if (field === "name" && issue.code === "invalid_type") return "Name is required";
  if (field === "email" && issue.code === "invalid_format") return `Invalid email address: ${String(issue.input)}`;
  if (issue.code === "too_big") return `Field ${quote(field)} is too long (at most ${String(issue.maximum)} characters)`;
  return `Field ${quote(field)} is invalid: ${issue.message}`;
}
