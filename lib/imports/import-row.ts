import { ApiError } from "../http/api-error";
import type { RawField } from "../http/read-body";
import { FORMULA_START } from "../leads/csv";
import { parseLeadInput, type LeadInput } from "../leads/parse-lead-input";
import type { ColumnMapping } from "./column-mapping";

// One row of an import as create_lead's input (docs/import.md "Rows"): the mapped cells
// become the body's fields, and parseLeadInput, the same validation as the API's, decides.
// A row it refuses (no name, an invalid email, a value too long…) is refused with the
// API's message as its reason; everything else is the API's too (an invalid phone is
// skipped and kept as typed).

export type RowResult = { ok: true; input: LeadInput } | { ok: false; reason: string };

/**
 * The apostrophe a spreadsheet-safe export puts before =, +, -, @, tab or CR, also after
 * leading whitespace (lib/leads/csv.ts), is removed: "'+44 20…" is the number "+44 20…"
 * again, "' @handle" is " @handle". A spreadsheet never writes it itself.
 */
export function unneutralise(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}

/** The extra fields of the export's JSON column; a cell that is no JSON object refuses the row. */
function jsonExtraFields(header: string, cell: string): RawField[] {
  if (!cell.trim()) return [];
  let value: unknown;
  try {
    value = JSON.parse(cell);
  } catch {
    throw new RowRefusal(`Column "${header}" is not a JSON object of extra fields`);
  }
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw new RowRefusal(`Column "${header}" is not a JSON object of extra fields`);
  return Object.entries(value);
}

class RowRefusal extends Error {}

/** The fields of a row as create_lead would receive them, in column order. */
export function rowFields(headers: readonly string[], mapping: ColumnMapping, cells: readonly string[]): RawField[] {
  const known = new Map<string, string>();
  const extra: RawField[] = [];
  let first = "";
  let last = "";
  mapping.forEach((target, index) => {
    const cell = unneutralise(cells[index] ?? "");
    const header = headers[index]!;
    switch (target) {
      case "ignore":
        return;
      case "first_name":
        first = cell.trim();
        return;
      case "last_name":
        last = cell.trim();
        return;
      case "extra":
        extra.push([header, cell]);
        return;
      case "extra_json":
        extra.push(...jsonExtraFields(header, cell));
        return;
      default:
        // Two columns for one field (the export's phone and its invalid_phone): the first with a value.
        if (!known.get(target)?.trim()) known.set(target, cell);
    }
  });
  if (first || last) known.set("name", [first, last].filter(Boolean).join(" "));
  return [...known, ...extra];
}

/** A row's lead input, or why it is refused (the API's own message). */
export function rowInput(headers: readonly string[], mapping: ColumnMapping, cells: readonly string[]): RowResult {
  try {
    const input = parseLeadInput(rowFields(headers, mapping, cells));
    if (!input.name?.trim()) return { ok: false, reason: "Name is required" };
    return { ok: true, input };
  } catch (error) {
    if (error instanceof RowRefusal) return { ok: false, reason: error.message };
    if (error instanceof ApiError) return { ok: false, reason: error.error };
    throw error;
  }
}
