import { db } from "../db/client";
import { leadFromInput, type SkippableField } from "../leads/create-lead";
import { LIMITS } from "../leads/lead-input-schema";
import { pickSource, sourceKeys } from "../leads/lead-write";
import type { NewLead } from "../leads/new-lead";
import { listLeadSourceNames, type LeadSource } from "../teams/lead-sources";
import { workspaceCurrency } from "../workspace/settings";
import { mappingProblem, type ColumnMapping } from "./column-mapping";
import { openCsv, type CsvDelimiter, type CsvEncoding } from "./csv-file";
import { importFilePath } from "./import-job";
import { rowInput } from "./import-row";
import type { ImportRecord } from "./import-store";

// An import's preview, before it starts: the first rows as they will be stored, how many
// rows the mapping refuses, and the sample cells the mapping step shows. Nothing is written.

export const PREVIEW_ROWS = 20;

/** A row of the preview: the lead as it will be stored, or why the row is refused. */
export type PreviewRow =
  | {
      row: number;
      ok: true;
      lead: Pick<
        NewLead,
        | "firstName"
        | "lastName"
        | "email"
        | "phone"
        | "mobileNo"
        | "organization"
        | "skippedPhone"
        | "skippedMobileNo"
        | "skippedWebsite"
        | "extraFields"
      > & { source: string };
      skipped: SkippableField[];
    }
  | { row: number; ok: false; reason: string };

export type Preview = { rows: PreviewRow[]; totalRows: number; refusedRows: number; problem: string | null };

/**
 * The first rows as they will be stored, each with its problems, and how many rows of the
 * whole file the mapping would refuse (a pass over the file; nothing is written).
 */
export async function previewImport(record: ImportRecord, mapping: ColumnMapping, options: { sourceId: string | null }): Promise<Preview> {
  const problem = mappingProblem(record.headers, mapping, LIMITS.extraFieldCount);
  if (problem) return { rows: [], totalRows: record.totalRows, refusedRows: 0, problem };
  const team = await db().team.findUniqueOrThrow({ where: { id: record.teamId }, select: { id: true, defaultPhoneCountry: true } });
  const sources = await listLeadSourceNames(record.teamId);
  // As the job resolves them (and the lead writer, by the same keys): a named source, an
  // unknown one falling back to API, else the file's choice.
  const keyed = sources.map((source) => ({ ...source, nameKey: source.name.toLowerCase() }));
  const api = pickSource(keyed, sourceKeys({ requested: undefined })!) ?? { id: "", name: "API" };
  const chosen = sources.find((s) => s.id === options.sourceId) ?? null;
  const sourceFor = (name: string | undefined): LeadSource =>
    name?.trim() ? (pickSource(keyed, sourceKeys({ requested: name })!) ?? api) : (chosen ?? api);
  const currency = await workspaceCurrency();
  const csv = await openCsv(importFilePath(record.filePath), {
    encoding: record.encoding as CsvEncoding,
    delimiter: record.delimiter as CsvDelimiter,
  });
  const rows: PreviewRow[] = [];
  let refused = 0;
  let total = 0;
  for await (const { row, cells } of csv.records) {
    total++;
    const result = rowInput(record.headers, mapping, cells);
    if (!result.ok) refused++;
    if (rows.length >= PREVIEW_ROWS) continue;
    if (!result.ok) {
      rows.push({ row, ok: false, reason: result.reason });
      continue;
    }
    const source = sourceFor(result.input.source);
    const { lead, skipped } = leadFromInput({ team, origin: { apiKeyId: null }, source, currency, input: result.input });
    rows.push({
      row,
      ok: true,
      skipped,
      lead: {
        firstName: lead.firstName,
        lastName: lead.lastName,
        email: lead.email,
        phone: lead.phone,
        mobileNo: lead.mobileNo,
        organization: lead.organization,
        skippedPhone: lead.skippedPhone,
        skippedMobileNo: lead.skippedMobileNo,
        skippedWebsite: lead.skippedWebsite,
        extraFields: lead.extraFields,
        source: source.name,
      },
    });
  }
  return { rows, totalRows: total, refusedRows: refused, problem: null };
}

/** The first rows' cells (the mapping step shows them beside each column). */
export async function sampleRows(record: ImportRecord, count = 3): Promise<string[][]> {
  const csv = await openCsv(importFilePath(record.filePath), {
    encoding: record.encoding as CsvEncoding,
    delimiter: record.delimiter as CsvDelimiter,
  });
  const rows: string[][] = [];
  for await (const { cells } of csv.records) {
    rows.push(cells.map((cell) => cell.slice(0, 60)));
    if (rows.length === count) break;
  }
  await csv.records.return(undefined);
  return rows;
}
