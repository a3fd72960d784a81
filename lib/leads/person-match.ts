import type { Tx } from "../db/client";
import { env } from "../env";
import { parsePhone } from "./phone";

// What a person's erasure (lib/leads/erase-person.ts) looks for in stored text that no lead
// id ties to them: the outbox's payloads, the delivery log, refused import rows and
// uploaded import files. The person is every email and number the admin confirmed: the one
// typed, and those of the leads being erased (the page listed them all).

/** A person's contact details as stored: lower-cased emails, E.164 numbers. */
export type PersonContacts = { emails: string[]; phones: string[] };

type Contact = { email: string | null; phone?: string | null; mobileNo?: string | null };

/** The person typed (an email or a number) and the contact details of their erased leads. */
export function personContacts(person: { email: string | null; phone: string | null }, leads: readonly Contact[]): PersonContacts {
  const emails = new Set<string>();
  const phones = new Set<string>();
  for (const contact of [{ email: person.email, phone: person.phone }, ...leads]) {
    const email = contact.email?.trim().toLowerCase();
    // An email that is not one (no "@", or one character) would match too much text.
    if (email && email.length >= 3 && email.includes("@")) emails.add(email);
    for (const number of [contact.phone, contact.mobileNo]) if (number && /^\+\d{6,15}$/.test(number)) phones.add(number);
  }
  return { emails: [...emails], phones: [...phones] };
}

/**
 * A case-insensitive LIKE pattern (ESCAPE '\') for text containing `text`, with LIKE's
 * wildcards in it escaped: compare it to LOWER(column). SQLite's LOWER folds ASCII only,
 * PostgreSQL's every letter; the emails are stored lower-cased already (PersonContacts).
 */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, "\\$&")}%`;
}

/** The text and, when JSON escapes some of its characters, its form inside a JSON string. */
export function asStoredInJson(text: string): string[] {
  const escaped = JSON.stringify(text).slice(1, -1);
  return escaped === text ? [text] : [text, escaped];
}

/**
 * The LIKE tests (ESCAPE '\\') a stored text `text` (an SQL expression) passes when it may
 * name the person: each email as stored in JSON, lower-cased; each number's national digits
 * once the usual separators are removed. A prefilter in SQL: confirm each row with cellMatcher.
 */
export function likeTests(contacts: PersonContacts, matcher: CellMatcher, text: string): { column: string; pattern: string }[] {
  const digits = `REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(REPLACE(${text}, ' ', ''), '-', ''), '(', ''), ')', ''), '.', ''), '/', '')`;
  return [
    ...contacts.emails.flatMap(asStoredInJson).map((email) => ({ column: `LOWER(${text})`, pattern: containsPattern(email) })),
    ...matcher.nationalNumbers.map((national) => ({ column: digits, pattern: `%${national}%` })),
  ];
}

/** Every key, string and number of a JSON value, walked without recursion (a value may nest deeply). */
export function jsonTexts(root: unknown, texts: string[] = []): string[] {
  const stack: unknown[] = [root];
  while (stack.length) {
    const value = stack.pop();
    if (typeof value === "string") texts.push(value);
    else if (typeof value === "number") texts.push(String(value));
    else if (Array.isArray(value)) for (const item of value) stack.push(item);
    else if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) {
        texts.push(key);
        stack.push(item);
      }
    }
  }
  return texts;
}

/** The national significant number of an E.164 number, and its calling code's digits. */
function numberParts(e164: string): { code: string; national: string } | null {
  const parsed = parsePhone(e164);
  return parsed ? { code: parsed.countryCode.slice(1), national: parsed.national } : null;
}

/** Separators people type inside a phone number ("+44 (0)7911-123.456"). */
const SEPARATORS = /[\s().\-/]/g;

export type CellMatcher = {
  /** Whether one cell (or line, or fragment) of text names the person. */
  matches(cell: string): boolean;
  /**
   * Whether any part of a longer text could: it holds an email, or a number's national
   * digits once separators are removed (true whenever `matches` is for some part of it).
   */
  mayMatch(text: string): boolean;
  /** The digits a cell naming one of the numbers contains once separators are removed (a quick pre-filter). */
  nationalNumbers: string[];
};

/**
 * Matches text as a person typed it (an import's cells): an email anywhere in it, case
 * folded; a number written any usual way: with or without its calling code (+44, 0044,
 * 44), a trunk prefix (0, "(0)"), spaces, dots, dashes or brackets, but not as part of a
 * longer run of digits.
 */
export function cellMatcher(contacts: PersonContacts): CellMatcher {
  const numbers = contacts.phones.map(numberParts).filter((n): n is { code: string; national: string } => n !== null);
  const patterns = numbers.map(({ code, national }) => new RegExp(`(?<!\\d)(?:(?:\\+|00)?${code}0?|0\\d?)?${national}(?!\\d)`));
  const nationalNumbers = numbers.map((n) => n.national);
  return {
    nationalNumbers,
    mayMatch(text) {
      const lower = text.toLowerCase();
      if (contacts.emails.some((email) => lower.includes(email))) return true;
      if (!nationalNumbers.length) return false;
      const digits = text.replace(SEPARATORS, "");
      return nationalNumbers.some((national) => digits.includes(national));
    },
    matches(cell) {
      const lower = cell.toLowerCase();
      if (contacts.emails.some((email) => lower.includes(email))) return true;
      if (!patterns.length) return false;
      const digits = cell.replace(SEPARATORS, "");
      return patterns.some((pattern, i) => digits.includes(nationalNumbers[i]!) && pattern.test(digits));
    },
  };
}

/** LIKE tests per statement (bound parameters). */
const PATTERNS_PER_STATEMENT = 100;

/**
 * The team's rows of `table` whose JSON column `json` names the person, each with its
 * `owner` column's value when one is asked for: a LIKE scan of the column's text (no index:
 * an erasure is rare), confirmed value by value (jsonTexts, the matcher), so a number's
 * digits inside another number never count.
 */
export async function findJsonRowsNaming(
  client: Tx,
  options: { table: "LeadSubmission" | "QuarantinedLead"; json: string; owner?: string; teamId: string; contacts: PersonContacts },
): Promise<{ id: string; owner: string | null }[]> {
  const { contacts } = options;
  if (!contacts.emails.length && !contacts.phones.length) return [];
  const matcher = cellMatcher(contacts);
  const tests = likeTests(contacts, matcher, `CAST(r."${options.json}" AS TEXT)`);
  const postgres = env().DATABASE_PROVIDER === "postgres";
  const at = (index: number) => (postgres ? `$${index}` : "?");
  const owner = options.owner ? `r."${options.owner}"` : "NULL";
  const found = new Map<string, string | null>();
  for (let i = 0; i < tests.length; i += PATTERNS_PER_STATEMENT) {
    const chunk = tests.slice(i, i + PATTERNS_PER_STATEMENT);
    const rows = await client.$queryRawUnsafe<{ id: string; owner: string | null; value: unknown }[]>(
      `SELECT r."id", ${owner} AS "owner", r."${options.json}" AS "value" FROM "${options.table}" r
        WHERE r."teamId" = ${at(1)} AND (${chunk.map((t, j) => `${t.column} LIKE ${at(j + 2)} ESCAPE '\\'`).join(" OR ")})`,
      options.teamId,
      ...chunk.map((t) => t.pattern),
    );
    for (const row of rows) {
      const value = typeof row.value === "string" ? (JSON.parse(row.value) as unknown) : row.value;
      if (jsonTexts(value).some((text) => matcher.matches(text))) found.set(row.id, row.owner);
    }
  }
  return [...found].map(([id, owner]) => ({ id, owner }));
}
