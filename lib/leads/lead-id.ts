const PREFIX = "CRM-LEAD-";

/** CRM-LEAD-00001: the sequence number zero-padded to five digits (more when it outgrows them). */
export function formatLeadId(seq: number): string {
  return `${PREFIX}${String(seq).padStart(5, "0")}`;
}

export function parseLeadId(id: string): number | null {
  const match = /^CRM-LEAD-(\d+)$/.exec(id.trim().toUpperCase());
  return match ? Number(match[1]) : null;
}
