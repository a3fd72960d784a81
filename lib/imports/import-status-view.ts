import type { ImportRecord } from "./import-store";

/** The progress and counts the import page shows while an import runs (first rendered, then polled). */
export type ImportStatusView = Pick<
  ImportRecord,
  "status" | "cursor" | "totalRows" | "createdCount" | "updatedCount" | "skippedCount" | "refusedCount" | "error"
> & { startedAt: string | null };

export function importStatusView(record: ImportRecord): ImportStatusView {
  const { status, cursor, totalRows, createdCount, updatedCount, skippedCount, refusedCount, error, startedAt } = record;
  return {
    status,
    cursor,
    totalRows,
    createdCount,
    updatedCount,
    skippedCount,
    refusedCount,
    error,
    startedAt: startedAt?.toISOString() ?? null,
  };
}
