import type Database from "better-sqlite3";
import { pgTime, sqliteTime } from "../db/column-values";
import { driver, preparedPerConnection, readDriverBoolean, readDriverTime } from "../db/driver";
import { INTAKE_TEAM_SQL, intakeTeamOf, type IntakeTeam, type IntakeTeamRow } from "../teams/intake-team";
import { API_KEY_REPEATS_DEFAULT, parseRepeats, type Repeats } from "../leads/repeats";

// The API key's statements of the intake's hot path (spec 5), on the database driver itself
// like the lead's transaction (lib/leads/lead-writer.ts, docs/performance.md "The intake on
// the driver"): the key with its team, the versions a cached key is checked against
// (lib/api-keys/key-cache.ts), and its last-used time.

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
  /** What the key and its team's row were read at: key-cache.ts uses a cached key only while both still are. */
  versions: KeyVersions;
};

/**
 * The key's authVersion and its team's intakeVersion (null once the team is gone), bumped by
 * triggers on every change authentication reads (migration 20261205000301_key_cache_versions).
 */
export type KeyVersions = { key: number; team: number | null };

type KeyRow = {
  id: string;
  secretDigest: string;
  lastUsedAt: unknown;
  expiresAt: unknown;
  repeats: string;
  spamChecks: unknown;
  authVersion: number | bigint;
  intakeVersion: number | bigint | null;
} & ({ teamId: null } | IntakeTeamRow);

// The versions are read in the same statement as what they stand for (the key's row and its
// team's), so a cached key always holds what its versions say.
const VERSIONS = `k."authVersion", t."intakeVersion" FROM "ApiKey" k LEFT JOIN "Team" t ON t."id" = k."teamId"`;

const SQLITE = {
  key: `SELECT k."id", k."secretDigest", k."lastUsedAt", k."expiresAt", k."repeats", k."spamChecks", ${INTAKE_TEAM_SQL},
    ${VERSIONS} WHERE k."id" = ?`,
  versions: `SELECT ${VERSIONS} WHERE k."id" = ?`,
  touchKey: `UPDATE "ApiKey" SET "lastUsedAt" = ? WHERE "id" = ? AND ("lastUsedAt" IS NULL OR "lastUsedAt" < ?)`,
};

const POSTGRES = {
  key: {
    name: "intake_key",
    text: `SELECT k."id", k."secretDigest",
        (EXTRACT(EPOCH FROM k."lastUsedAt") * 1000)::float8 AS "lastUsedAt",
        (EXTRACT(EPOCH FROM k."expiresAt") * 1000)::float8 AS "expiresAt",
        k."repeats", k."spamChecks", ${INTAKE_TEAM_SQL}, ${VERSIONS} WHERE k."id" = $1`,
  },
  versions: { name: "intake_key_versions", text: `SELECT ${VERSIONS} WHERE k."id" = $1`, rowMode: "array" },
  touchKey: {
    name: "intake_touch_key",
    text: `UPDATE "ApiKey" SET "lastUsedAt" = $1::timestamp(3) WHERE "id" = $2 AND ("lastUsedAt" IS NULL OR "lastUsedAt" < $3::timestamp(3))`,
  },
} as const;

type Prepared = { key: Database.Statement; versions: Database.Statement; touchKey: Database.Statement };
const statementsOf = preparedPerConnection((database): Prepared => ({
  key: database.prepare(SQLITE.key).safeIntegers(false),
  versions: database.prepare(SQLITE.versions).safeIntegers(false).raw(true),
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
    versions: { key: Number(row.authVersion), team: row.intakeVersion === null ? null : Number(row.intakeVersion) },
  };
}

type VersionsRow = [authVersion: number | string, intakeVersion: number | string | null];

/** The key's and its team's versions now (one small statement); null for an unknown or deleted key. */
export async function findKeyVersions(keyId: string): Promise<KeyVersions | null> {
  const d = await driver();
  const row =
    d.provider === "sqlite"
      ? await d.run((database) => statementsOf(database).versions.get(keyId) as VersionsRow | undefined)
      : (await d.pool.query<VersionsRow>({ ...POSTGRES.versions, values: [keyId] })).rows[0];
  if (!row) return null;
  return { key: Number(row[0]), team: row[1] === null ? null : Number(row[1]) };
}

/**
 * Records use of a key at most once a minute, so the hot path rarely writes; notes the time on
 * `key` too, so a cached key is not written again within the minute.
 */
export async function touchApiKey(key: { id: string; lastUsedAt: Date | null }, now = new Date()): Promise<void> {
  const staleBefore = new Date(now.getTime() - 60_000);
  if (key.lastUsedAt && key.lastUsedAt > staleBefore) return;
  key.lastUsedAt = now;
  const d = await driver();
  if (d.provider === "sqlite") {
    await d.run((database) => statementsOf(database).touchKey.run(sqliteTime(now), key.id, sqliteTime(staleBefore)));
  } else {
    await d.pool.query({ ...POSTGRES.touchKey, values: [pgTime(now), key.id, pgTime(staleBefore)] });
  }
}
