import type Database from "better-sqlite3";
import { driver, preparedPerConnection, readDriverBoolean, readDriverTime } from "../db/driver";
import type { BuilderId } from "./builders";
import type { ConnectionForIntake } from "./connection-store";
import type { AnswerOverrides } from "./map-answers";
import { parseRepeats } from "../leads/repeats";
import { INTAKE_TEAM_SQL, intakeTeamOf, type IntakeTeamRow } from "../teams/intake-team";

// The connection's statements of the intake's hot path (POST /api/connections/<token>), on
// the database driver itself like the API key's (lib/api-keys/key-lookup-store.ts) and the
// lead's transaction (docs/performance.md "The intake on the driver"): through Prisma, the
// two lookups of every delivery cost more CPU than the lead's own transaction (its query
// compiler), and a signed Tally delivery served a third of create_lead's rate.

type ConnectionRow = {
  id: string;
  builder: string;
  enabled: unknown;
  signingSecretCiphertext: string | null;
  mapping: unknown;
  tokenDigest: string;
  previousTokenExpiresAt: unknown;
  repeats: string;
  spamChecks: unknown;
  consentVersionId: string | null;
  consentRequired: unknown;
  doubleOptIn: unknown;
} & IntakeTeamRow;

// The consent it records (docs/consent.md "Connections") in the same statement: a connection
// without one costs no other query, one with one none either.
const SELECT_CONNECTION = `SELECT c."id", c."builder", c."enabled", c."signingSecretCiphertext", c."mapping", c."tokenDigest",
    c."previousTokenExpiresAt", c."repeats", c."spamChecks", c."consentVersionId", v."required" AS "consentRequired",
    c."doubleOptIn", ${INTAKE_TEAM_SQL}
  FROM "Connection" c JOIN "Team" t ON t."id" = c."teamId" LEFT JOIN "ConsentVersion" v ON v."id" = c."consentVersionId"`;

const SQLITE = {
  // Two unique indexes, one each: an OR of two index lookups.
  connection: `${SELECT_CONNECTION} WHERE c."tokenDigest" = ? OR c."previousTokenDigest" = ? LIMIT 2`,
  deliveredLead: `SELECT "leadId", "status" FROM "ConnectionDelivery" WHERE "connectionId" = ? AND "submissionId" = ?`,
};

const POSTGRES = {
  connection: {
    name: "intake_connection",
    text: `${SELECT_CONNECTION.replace(
      'c."previousTokenExpiresAt",',
      '(EXTRACT(EPOCH FROM c."previousTokenExpiresAt") * 1000)::float8 AS "previousTokenExpiresAt",',
    )} WHERE c."tokenDigest" = $1 OR c."previousTokenDigest" = $1 LIMIT 2`,
  },
  deliveredLead: {
    name: "intake_delivered_lead",
    text: `SELECT "leadId", "status" FROM "ConnectionDelivery" WHERE "connectionId" = $1 AND "submissionId" = $2`,
  },
} as const;

type Prepared = { connection: Database.Statement; deliveredLead: Database.Statement };
const statementsOf = preparedPerConnection((database): Prepared => ({
  connection: database.prepare(SQLITE.connection).safeIntegers(false),
  deliveredLead: database.prepare(SQLITE.deliveredLead).safeIntegers(false),
}));

/** The mapping as stored: JSON text on SQLite, already parsed from jsonb on PostgreSQL. */
function readMapping(value: unknown): AnswerOverrides {
  let parsed = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value);
    } catch {
      return {};
    }
  }
  return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as AnswerOverrides) : {};
}

/**
 * The connection whose current URL token has this digest, or whose replaced one does until
 * it expires (`now`); null otherwise.
 */
export async function findConnectionForIntake(digest: string, now: Date): Promise<ConnectionForIntake | null> {
  const d = await driver();
  const rows =
    d.provider === "sqlite"
      ? await d.run((database) => statementsOf(database).connection.all(digest, digest) as ConnectionRow[])
      : (await d.pool.query<ConnectionRow>({ ...POSTGRES.connection, values: [digest] })).rows;
  const row = rows.find((candidate) => candidate.tokenDigest === digest) ?? rows.find((candidate) => isStillValid(candidate, now));
  if (!row) return null;
  return {
    id: row.id,
    builder: row.builder as BuilderId,
    enabled: readDriverBoolean(row.enabled),
    signingSecretCiphertext: row.signingSecretCiphertext,
    mapping: readMapping(row.mapping),
    // A connection made before issue 41 kept "new" (the migration); the column is never anything else.
    repeats: parseRepeats(row.repeats) ?? "new",
    spamChecks: readDriverBoolean(row.spamChecks),
    consent: row.consentVersionId
      ? { id: row.consentVersionId, required: readDriverBoolean(row.consentRequired), doubleOptIn: readDriverBoolean(row.doubleOptIn) }
      : null,
    team: intakeTeamOf(row),
  };
}

function isStillValid(row: ConnectionRow, now: Date): boolean {
  const until = readDriverTime(row.previousTokenExpiresAt);
  return until !== null && until > now;
}

/** The lead a submission already made or was added to (its log row's status 200, lib/leads/lead-write.ts writtenStatus), if any. */
export async function findDeliveredLead(options: { connectionId: string; submissionId: string }): Promise<DeliveredLead | null> {
  const d = await driver();
  const row =
    d.provider === "sqlite"
      ? await d.run(
          (database) => statementsOf(database).deliveredLead.get(options.connectionId, options.submissionId) as DeliveredRow | undefined,
        )
      : (await d.pool.query<DeliveredRow>({ ...POSTGRES.deliveredLead, values: [options.connectionId, options.submissionId] })).rows[0];
  return row?.leadId ? { leadId: row.leadId, added: Number(row.status) === 200 } : null;
}

type DeliveredRow = { leadId: string | null; status: number | null };
export type DeliveredLead = { leadId: string; added: boolean };
