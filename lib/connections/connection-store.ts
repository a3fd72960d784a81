import type { AskedConsent } from "../consent/consent-evidence";
import { INTAKE_TEAM_SELECT, type IntakeTeam } from "../teams/intake-team";
import { db, type Tx } from "../db/client";
import { parseRepeats, type Repeats } from "../leads/repeats";
import type { BuilderId } from "./builders";
import type { AnswerOverrides } from "./map-answers";

// Every database access for form-builder connections, and nothing else: a store only
// stores. The intake's two lookups are on the driver (connection-intake-store.ts); their
// log is connection-delivery-store.ts; the audited changes are
// connection-changes.ts; the intake's use is lib/intake/receive-delivery.ts.

export type ConnectionForIntake = {
  id: string;
  builder: BuilderId;
  enabled: boolean;
  signingSecretCiphertext: string | null;
  mapping: AnswerOverrides;
  /** What the connection does with a person's repeat submission (lib/leads/repeats.ts). */
  repeats: Repeats;
  /** Whether the spam checks run on its submissions (docs/spam.md). */
  spamChecks: boolean;
  /** The consent it records (its current version, required or not, double opt-in), or null: none (docs/consent.md "Connections"). */
  consent: AskedConsent | null;
  team: IntakeTeam;
};

export type ConnectionView = {
  id: string;
  builder: BuilderId;
  name: string;
  mapping: Record<string, string>;
  /** Whether it has a signing secret (a builder that signs; Webflow's is set by the team). */
  hasSigningSecret: boolean;
  tokenHint: string;
  previousTokenExpiresAt: Date | null;
  enabled: boolean;
  /** What a repeat submission does (docs/leads.md "Repeat submissions"). */
  repeats: Repeats;
  /** Whether the spam checks run on its submissions (docs/spam.md "Per channel"). */
  spamChecks: boolean;
  /** Double opt-in of the consent it records (docs/consent.md "Connections"). */
  doubleOptIn: boolean;
  createdAt: Date;
};

const VIEW_SELECT = {
  id: true,
  signingSecretCiphertext: true,
  builder: true,
  name: true,
  mapping: true,
  tokenHint: true,
  previousTokenExpiresAt: true,
  enabled: true,
  repeats: true,
  spamChecks: true,
  doubleOptIn: true,
  createdAt: true,
} as const;

const asMapping = (value: unknown): AnswerOverrides =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as AnswerOverrides) : {};

export const INTAKE_SELECT = {
  id: true,
  builder: true,
  enabled: true,
  signingSecretCiphertext: true,
  mapping: true,
  repeats: true,
  spamChecks: true,
  doubleOptIn: true,
  consentVersion: { select: { id: true, required: true } },
  team: { select: INTAKE_TEAM_SELECT },
} as const;

export function intakeView({
  doubleOptIn,
  consentVersion,
  ...row
}: Omit<ConnectionForIntake, "builder" | "mapping" | "repeats" | "consent"> & {
  builder: string;
  mapping: unknown;
  repeats: string;
  doubleOptIn: boolean;
  consentVersion: { id: string; required: boolean } | null;
}): ConnectionForIntake {
  return {
    ...row,
    builder: row.builder as BuilderId,
    mapping: asMapping(row.mapping),
    repeats: parseRepeats(row.repeats) ?? "new",
    consent: consentVersion && { ...consentVersion, doubleOptIn },
  };
}

function view({
  signingSecretCiphertext,
  repeats,
  ...row
}: Omit<ConnectionView, "builder" | "mapping" | "hasSigningSecret" | "repeats"> & {
  builder: string;
  mapping: unknown;
  signingSecretCiphertext: string | null;
  repeats: string;
}): ConnectionView {
  return {
    ...row,
    builder: row.builder as BuilderId,
    mapping: asMapping(row.mapping),
    hasSigningSecret: signingSecretCiphertext !== null,
    repeats: parseRepeats(repeats) ?? "new",
  };
}

export async function listConnections(teamId: string): Promise<ConnectionView[]> {
  const rows = await db().connection.findMany({ where: { teamId }, orderBy: { createdAt: "asc" }, select: VIEW_SELECT });
  return rows.map(view);
}

/** The team's connections by name, for the lead list's filter. */
export async function listConnectionLabels(teamId: string): Promise<{ id: string; name: string }[]> {
  return db().connection.findMany({ where: { teamId }, orderBy: { createdAt: "asc" }, select: { id: true, name: true } });
}

export async function findConnection(options: { teamId: string; id: string }): Promise<ConnectionView | null> {
  const row = await db().connection.findFirst({ where: { id: options.id, teamId: options.teamId }, select: VIEW_SELECT });
  return row && view(row);
}

/** The connection's builder inside a change's transaction; null when the team has no such connection. */
export async function findConnectionIn(tx: Tx, options: { teamId: string; id: string }): Promise<{ builder: BuilderId } | null> {
  const row = await tx.connection.findFirst({ where: { id: options.id, teamId: options.teamId }, select: { builder: true } });
  return row && { builder: row.builder as BuilderId };
}

/** How many connections the team has. */
export async function countConnections(tx: Tx, teamId: string): Promise<number> {
  return tx.connection.count({ where: { teamId } });
}

export async function insertConnection(
  tx: Tx,
  row: {
    teamId: string;
    builder: BuilderId;
    name: string;
    tokenDigest: string;
    tokenHint: string;
    createdById: string | null;
    repeats: Repeats;
    spamChecks: boolean;
  },
): Promise<string> {
  const created = await tx.connection.create({ data: { ...row, mapping: {} }, select: { id: true } });
  return created.id;
}

/** Seals the signing secret to the row (its id is the box's context), once the row exists. */
export async function writeSigningSecret(tx: Tx, options: { id: string; ciphertext: string }): Promise<void> {
  await tx.connection.update({ where: { id: options.id }, data: { signingSecretCiphertext: options.ciphertext } });
}

/** A new URL token; the current one keeps working until `previousUntil` (null: refused at once). */
export async function writeRolledToken(
  tx: Tx,
  options: { teamId: string; id: string; tokenDigest: string; tokenHint: string; previousUntil: Date | null },
): Promise<boolean> {
  const row = await tx.connection.findFirst({ where: { id: options.id, teamId: options.teamId }, select: { tokenDigest: true } });
  if (!row) return false;
  await tx.connection.update({
    where: { id: options.id },
    data: {
      tokenDigest: options.tokenDigest,
      tokenHint: options.tokenHint,
      previousTokenDigest: options.previousUntil ? row.tokenDigest : null,
      previousTokenExpiresAt: options.previousUntil,
    },
  });
  return true;
}

export async function writeConnectionEnabled(tx: Tx, options: { teamId: string; id: string; enabled: boolean }): Promise<boolean> {
  const { count } = await tx.connection.updateMany({
    where: { id: options.id, teamId: options.teamId },
    data: { enabled: options.enabled },
  });
  return count === 1;
}

export async function writeConnectionMapping(tx: Tx, options: { teamId: string; id: string; mapping: AnswerOverrides }): Promise<boolean> {
  const { count } = await tx.connection.updateMany({
    where: { id: options.id, teamId: options.teamId },
    data: { mapping: { ...options.mapping } },
  });
  return count === 1;
}

/** Sets the connection's repeat setting and returns what it was; null when the team has no such connection. */
export async function writeConnectionRepeats(
  tx: Tx,
  options: { teamId: string; id: string; repeats: Repeats },
): Promise<{ name: string; repeats: Repeats } | null> {
  const row = await tx.connection.findFirst({ where: { id: options.id, teamId: options.teamId }, select: { name: true, repeats: true } });
  if (!row) return null;
  await tx.connection.update({ where: { id: options.id }, data: { repeats: options.repeats } });
  return { name: row.name, repeats: parseRepeats(row.repeats) ?? "new" };
}

/** Turns the connection's spam checks on or off and returns its name and what they were; null when the team has no such connection. */
export async function writeConnectionSpamChecks(
  tx: Tx,
  options: { teamId: string; id: string; spamChecks: boolean },
): Promise<{ name: string; spamChecks: boolean } | null> {
  const row = await tx.connection.findFirst({
    where: { id: options.id, teamId: options.teamId },
    select: { name: true, spamChecks: true },
  });
  if (!row) return null;
  await tx.connection.update({ where: { id: options.id }, data: { spamChecks: options.spamChecks } });
  return row;
}

/** Deletes the connection and its log; its leads keep naming it. Null when the team has no such connection. */
export async function removeConnection(tx: Tx, options: { teamId: string; id: string }): Promise<{ name: string } | null> {
  const row = await tx.connection.findFirst({ where: { id: options.id, teamId: options.teamId }, select: { name: true } });
  if (!row) return null;
  await tx.connection.delete({ where: { id: options.id } });
  return row;
}
