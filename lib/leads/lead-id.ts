const PREFIX = "CRM-LEAD-";
const DIGITS = 5;

/** CRM-LEAD-00001: the sequence number zero-padded to five digits (more when it outgrows them). */
export function formatLeadId(seq: number): string {
  return `${PREFIX}${String(seq).padStart(DIGITS, "0")}`;
}

/**
 * formatLeadId in PostgreSQL, for a statement that takes its seq from the counter and writes
 * the lead in one round trip (lib/leads/lead-writer-postgres.ts); lib/leads/lead-writer-ids.test.ts
 * checks the two agree. `seq` is an SQL expression of an integer type.
 */
export function leadIdSql(seq: string): string {
  return `'${PREFIX}' || CASE WHEN length(${seq}::text) < ${DIGITS} THEN lpad(${seq}::text, ${DIGITS}, '0') ELSE ${seq}::text END`;
}

export function parseLeadId(id: string): number | null {
  const match = /^CRM-LEAD-(\d+)$/.exec(id.trim().toUpperCase());
  return match ? Number(match[1]) : null;
}
