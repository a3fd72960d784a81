import type { Erasure, PersonRecords } from "@/lib/leads/erase-person";

// "Erase a person" in words: what an erasure removes (the page's list before it, its status
// line after it, "Erased 0 leads, 2 kept connection deliveries and 1 refused import row."),
// and the page's query that carries the counts from the Erase button to that line. Counts
// only: never what the rows held.

type Counted = Exclude<keyof Erasure, "importFilesUnchecked">;

/** Each count's noun, for one and for many, in the order the page says them. */
const NOUNS = {
  leads: ["lead", "leads"],
  submissions: ["submission kept on another lead", "submissions kept on other leads"],
  quarantined: ["submission in the spam quarantine", "submissions in the spam quarantine"],
  heldSubmissions: ["submission held until confirmed", "submissions held until confirmed"],
  connectionDeliveries: ["kept connection delivery", "kept connection deliveries"],
  refusedImportRows: ["refused import row", "refused import rows"],
  importDrafts: ["draft import", "draft imports"],
  importFiles: ["uploaded import file", "uploaded import files"],
  requestLogRows: ["request-log entry", "request-log entries"],
  storedResponses: ["stored API response", "stored API responses"],
  jobs: ["webhook or email job", "webhook and email jobs"],
  deliveryAttempts: ["webhook delivery-log entry", "webhook delivery-log entries"],
} as const satisfies Record<Counted, readonly [string, string]>;

const COUNTED = Object.keys(NOUNS) as Counted[];
/** What names the person besides their leads' own rows (PersonRecords). */
type Recorded = Exclude<Counted, "leads" | "storedResponses">;
const RECORDED = COUNTED.filter((what): what is Recorded => what !== "leads" && what !== "storedResponses");

/** "1 refused import row", "2 refused import rows". */
export function counted(count: number, what: Counted): string {
  return `${count} ${NOUNS[what][count === 1 ? 0 : 1]}`;
}

/** "a", "a and b", "a, b and c". */
function listed(parts: readonly string[]): string {
  return parts.length < 2 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

/** What else names the person (the page's list before an erasure): each count above zero. */
export function recordLines(records: PersonRecords): string[] {
  return RECORDED.flatMap((what) => (records[what] > 0 ? [counted(records[what], what)] : []));
}

/** How many rows and files an erasure of these records removes besides the leads. */
export function recordCount(records: PersonRecords): number {
  return RECORDED.reduce((sum, what) => sum + records[what], 0);
}

/** Uploaded files an erasure could not read, and what to do about them. */
export function uncheckedFiles(count: number): string {
  const files = count === 1 ? "1 uploaded import file was" : `${count} uploaded import files were`;
  return `${files} not checked (too large, or unreadable): discard those draft imports (Leads → Import) to be sure none names the person.`;
}

/** The status line after an erasure: the leads always, then every other count above zero. */
export function erasedSentence(erasure: Partial<Erasure>): string {
  const parts = COUNTED.flatMap((what) => (what === "leads" || erasure[what] ? [counted(erasure[what] ?? 0, what)] : []));
  const sentence = `Erased ${listed(parts)}.`;
  return erasure.importFilesUnchecked ? `${sentence} ${uncheckedFiles(erasure.importFilesUnchecked)}` : sentence;
}

/** The page's query parameter of each count; the leads' is "erased" (the line's first). */
const param = (what: keyof Erasure) => (what === "leads" ? "erased" : what);

/** The Erase page's query after an erasure: its counts above zero, and the leads' always. */
export function erasureQuery(erasure: Erasure): string {
  const query = new URLSearchParams({ erased: String(erasure.leads) });
  for (const what of [...COUNTED, "importFilesUnchecked"] as const)
    if (what !== "leads" && erasure[what] > 0) query.set(param(what), String(erasure[what]));
  return query.toString();
}

/** The counts in the page's query (digits only, anything else ignored); null without "erased". */
export function erasureFromQuery(search: Record<string, string | string[] | undefined>): Partial<Erasure> | null {
  const read = (what: keyof Erasure) => {
    const value = search[param(what)];
    return typeof value === "string" && /^\d{1,6}$/.test(value) ? Number(value) : undefined;
  };
  const leads = read("leads");
  if (leads === undefined) return null;
  const erasure: Partial<Erasure> = { leads };
  for (const what of [...COUNTED, "importFilesUnchecked"] as const) erasure[what] = read(what);
  return erasure;
}
