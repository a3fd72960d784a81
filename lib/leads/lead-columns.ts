import { PG_CAST, pgValue, sqliteValue, type ColumnType } from "../db/column-values";

// The Lead columns written by the two statements that bypass Prisma: the intake's hot path
// (one lead per create_lead or form post) and an import's batch insert (many rows per
// statement). One list for both, with the types that say how each value is sent;
// lib/intake/intake-store.test.ts checks it against Prisma's model metadata.

/** Every column of Lead the intake's hot path (lib/intake/intake-store.ts) writes, with its type. The rest keep their defaults (DEFAULTED_LEAD_COLUMNS). */
export const LEAD_COLUMNS = {
  id: "text",
  seq: "int",
  teamId: "text",
  firstName: "text",
  lastName: "text",
  email: "text",
  emailKey: "text",
  nameKey: "text",
  lastNameKey: "text",
  organizationKey: "text",
  phone: "text",
  phoneCountryCode: "text",
  phoneNational: "text",
  mobileNo: "text",
  mobileCountryCode: "text",
  mobileNational: "text",
  skippedPhone: "text",
  skippedMobileNo: "text",
  skippedWebsite: "text",
  organization: "text",
  sourceId: "text",
  jobTitle: "text",
  website: "text",
  territory: "text",
  industry: "text",
  annualRevenue: "text",
  noOfEmployees: "text",
  currency: "text",
  utmSource: "text",
  utmMedium: "text",
  utmCampaign: "text",
  utmTerm: "text",
  utmContent: "text",
  extraFields: "json",
  apiKeyId: "text",
  formId: "text",
  createdAt: "timestamp",
} as const satisfies Record<string, ColumnType>;
/** Lead columns an API or form lead leaves to their default (null): set only by a merge, or by a CSV import. */
export const DEFAULTED_LEAD_COLUMNS = ["mergedLeadIds", "importId"] as const;

export type LeadColumn = keyof typeof LEAD_COLUMNS;

/** The columns of an import's batch insert: the hot path's, and the import the rows belong to. */
export const LEAD_BATCH_COLUMNS = { ...LEAD_COLUMNS, importId: "text" } as const satisfies Record<string, ColumnType>;
export type LeadBatchRow = { [K in keyof typeof LEAD_BATCH_COLUMNS]: unknown };

/**
 * Parameters per statement. SQLite: 999, the limit of SQLite builds before 3.32 (this one,
 * 3.49, takes 32,766 and a raw query through Prisma's adapter passes them; 999 was kept,
 * unmeasured against larger statements). PostgreSQL's protocol takes 65,535, so a batch is
 * one statement there (one round trip while the batch holds the lead counter's row lock,
 * which create_lead waits for).
 */
const MAX_PARAMETERS = { sqlite: 999, postgres: 65_535 } as const;

/**
 * Multi-row INSERT statements for `rows` (in their order), each under the parameter bound,
 * with values converted as the hot path converts them: the SQL and values for the driver,
 * or for Prisma's $executeRawUnsafe inside a transaction.
 */
export function leadBatchInserts(provider: "sqlite" | "postgres", rows: readonly LeadBatchRow[]): { sql: string; values: unknown[] }[] {
  const columns = Object.keys(LEAD_BATCH_COLUMNS) as (keyof typeof LEAD_BATCH_COLUMNS)[];
  const convert = provider === "postgres" ? pgValue : sqliteValue;
  const perStatement = Math.floor(MAX_PARAMETERS[provider] / columns.length);
  const statements: { sql: string; values: unknown[] }[] = [];
  for (let i = 0; i < rows.length; i += perStatement) {
    const values: unknown[] = [];
    const tuples = rows.slice(i, i + perStatement).map((row) => {
      const cells = columns.map((column) => {
        const type = LEAD_BATCH_COLUMNS[column];
        values.push(convert(type, row[column]));
        return provider === "postgres" ? `$${values.length}::${PG_CAST[type]}` : "?";
      });
      return `(${cells.join(", ")})`;
    });
    statements.push({ sql: `INSERT INTO "Lead" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES ${tuples.join(", ")}`, values });
  }
  return statements;
}
