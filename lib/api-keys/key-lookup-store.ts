import type Database from "better-sqlite3";
import { pgTime, sqliteTime } from "../db/column-values";
import { driver, preparedPerConnection, readDriverBoolean, readDriverTime } from "../db/driver";
import { INTAKE_TEAM_SQL, intakeTeamOf, type IntakeTeam, type IntakeTeamRow } from "../teams/intake-team";
import { API_KEY_REPEATS_DEFAULT, parseRepeats, type Repeats } from "../leads/repeats";

// The API key's statements of the intake's hot path (spec 5), on the database driver itself
// like the lead's transaction (lib/leads/lead-writer.ts, docs/performance.md "The intake on
// the driver"): the key with its team, and its last-used time.

export type KeyForAuth = {
  id: string;
  secretDigest: string;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  /** What the key does with a person's repeat submission (lib/leads/repeats.ts). */
  repeats: Repeats;
  /** Whether the spam checks run on its submissions (docs/spam.md). */
  spamChecks: boolean;
  team: IntakeTeam | null;
};

type KeyRow = {
  id: string;
  secretDigest: string;
  lastUsedAt: unknown;
  expiresAt: unknown;
  repeats: string;
  spamChecks: unknown;
} & ({ teamId: null } | IntakeTeamRow);

const SQLITE = {
  key: `SELECT k."id", k."secretDigest", k."lastUsedAt", k."expiresAt", k."repeats", k."spamChecks", ${INTAKE_TEAM_SQL}
    FROM "ApiKey" k LEFT JOIN "Team" t ON t."id" = k."teamId" WHERE k."id" = ?`,
  touchKey: `UPDATE "ApiKey" SET "lastUsedAt" = ? WHERE "id" = ? AND ("lastUsedAt" IS NULL OR "lastUsedAt" < ?)`,
};

const POSTGRES = {
  key: {
    name: "intake_key",
    text: `SELECT k."id", k."secretDigest",
        (EXTRACT(EPOCH FROM k."lastUsedAt") * 1000)::float8 AS "lastUsedAt",
        (EXTRACT(EPOCH FROM k."expiresAt") * 1000)::float8 AS "expiresAt",
        k."repeats", k."spamChecks", ${INTAKE_TEAM_SQL}
      FROM "ApiKey" k LEFT JOIN "Team" t ON t."id" = k."teamId" WHERE k."id" = $1`,
  },
  touchKey: {
    name: "intake_touch_key",
    text: `UPDATE "ApiKey" SET "lastUsedAt" = $1::timestamp(3) WHERE "id" = $2 AND ("lastUsedAt" IS NULL OR "lastUsedAt" < $3::timestamp(3))`,
  },
} as const;

type Prepared = { key: Database.Statement; touchKey: Database.Statement };
const statementsOf = preparedPerConnection((database): Prepared => ({
  key: database.prepare(SQLITE.key).safeIntegers(false),
  touchKey: database.prepare(SQLITE.touchKey).safeIntegers(false),
}));

/** The key with its team, for authentication (spec 5); null for an unknown id. */
export async function findKeyForAuth(keyId: string): Promise<KeyForAuth | null> {
  const d = await driver();
  const row =
    d.provider === "sqlite"
      ? await d.run((database) => statementsOf(database).key.get(keyId) as KeyRow | undefined)
      : (await d.pool.query<KeyRow>({ ...POSTGRES.key, values: [keyId] })).rows[0];
  if (!row) return null;
  return {
    id: row.id,
    secretDigest: row.secretDigest,
    lastUsedAt: readDriverTime(row.lastUsedAt),
    expiresAt: readDriverTime(row.expiresAt),
    repeats: parseRepeats(row.repeats) ?? API_KEY_REPEATS_DEFAULT,
    spamChecks: readDriverBoolean(row.spamChecks),
    team: row.teamId === null ? null : intakeTeamOf(row),
  };
}

/** Records use of a key at most once a minute, so the hot path rarely writes. */
export async function touchApiKey(key: { id: string; lastUsedAt: Date | null }, now = new Date()): Promise<void> {
  const staleBefore = new Date(now.getTime() - 60_000);
  if (key.lastUsedAt && key.lastUsedAt > staleBefore) return;
  const d = await driver();
  if (d.provider === "sqlite") {
    await d.run((database) => statementsOf(database).touchKey.run(sqliteTime(now), key.id, sqliteTime(staleBefore)));
  } else {
    await d.pool.query({ ...POSTGRES.touchKey, values: [pgTime(now), key.id, pgTime(staleBefore)] });
  }
}
