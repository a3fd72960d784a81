import { seal } from "../api-keys/secret-box";
import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { deleteChannelHeld } from "../consent/held-submission-store";
import { CHANNEL_REPEATS_DEFAULT, type Repeats } from "../leads/repeats";
import { CHANNEL_SPAM_CHECKS_DEFAULT } from "../spam/spam-checks-setting";
import { BUILDERS, secretFromUs, secretSetByTeam, type BuilderId } from "./builders";
import {
  countConnections,
  insertConnection,
  findConnectionIn,
  removeConnection,
  writeConnectionEnabled,
  writeConnectionMapping,
  writeConnectionRepeats,
  writeConnectionSpamChecks,
  writeRolledToken,
  writeSigningSecret,
} from "./connection-store";
import {
  connectionPath,
  generateConnectionToken,
  generateSigningSecret,
  signingSecretContext,
  tokenDigest,
  tokenHint,
} from "./connection-token";
import type { AnswerOverrides } from "./map-answers";

// What owners and admins (and the operator's CLI) do with a team's form-builder
// connections: make one, roll its URL, turn it off or on, change its mapping, what a
// repeat submission does or whether the spam checks run, delete it.
// Each change is written with its audit event in one transaction. The URL and the signing
// secret are returned once, to show; neither is readable again.

export type NewConnection = {
  id: string;
  /** The path to paste into the builder, with the token: shown once. */
  path: string;
  /** The signing secret to paste into the builder (builders that sign with ours): shown once; null for a secret the user gave. */
  signingSecret: string | null;
};

export const MAX_NAME_LENGTH = 100;
/** Connections per team (issue 40): each may keep KEPT_BYTES_PER_CONNECTION of bodies that need mapping. */
export const MAX_CONNECTIONS_PER_TEAM = 50;
export const TOO_MANY_CONNECTIONS = `A team can have at most ${MAX_CONNECTIONS_PER_TEAM} connections: delete one it no longer uses first.`;

/** A connection the team has no room for (MAX_CONNECTIONS_PER_TEAM); its message is for the person. */
export class ConnectionLimitReached extends Error {
  constructor() {
    super(TOO_MANY_CONNECTIONS);
    this.name = "ConnectionLimitReached";
  }
}

/** A new connection of the team, audited; ConnectionLimitReached when it has MAX_CONNECTIONS_PER_TEAM already. */
export async function createConnection(options: {
  teamId: string;
  builder: BuilderId;
  name?: string;
  /** A secret the builder made (Webflow: or set later, setConnectionSigningSecret); otherwise one is generated for builders that sign. */
  signingSecret?: string;
  /** What a repeat submission does (docs/leads.md "Repeat submissions"); absent: CHANNEL_REPEATS_DEFAULT. */
  repeats?: Repeats;
  /** Whether the spam checks run on its submissions (docs/spam.md "Per channel"); absent: CHANNEL_SPAM_CHECKS_DEFAULT (on). */
  spamChecks?: boolean;
  createdById: string | null;
  actor: AuditActor;
}): Promise<NewConnection> {
  const { teamId, builder } = options;
  const repeats = options.repeats ?? CHANNEL_REPEATS_DEFAULT;
  const spamChecks = options.spamChecks ?? CHANNEL_SPAM_CHECKS_DEFAULT;
  const given = options.signingSecret?.trim() || null;
  const token = generateConnectionToken();
  // Webflow's secret exists only once its webhook (which needs this URL) is made: it may come
  // later; Generic's is optional.
  const signingSecret = secretFromUs(builder) ? (given ?? generateSigningSecret()) : secretSetByTeam(builder) ? given : null;
  const name = (options.name?.trim() || BUILDERS[builder].name).slice(0, MAX_NAME_LENGTH);
  const id = await db().$transaction(async (tx) => {
    // Counted in the transaction that inserts: concurrent creates may pass together, one each.
    if ((await countConnections(tx, teamId)) >= MAX_CONNECTIONS_PER_TEAM) throw new ConnectionLimitReached();
    const created = await insertConnection(tx, {
      teamId,
      builder,
      name,
      tokenDigest: tokenDigest(token),
      tokenHint: tokenHint(token),
      createdById: options.createdById,
      repeats,
      spamChecks,
    });
    if (signingSecret) await writeSigningSecret(tx, { id: created, ciphertext: seal(signingSecret, signingSecretContext(created)) });
    await recordAuditEvent(
      { teamId, action: "connection.created", actor: options.actor, targetId: created, details: { name, builder, repeats, spamChecks } },
      tx,
    );
    return created;
  });
  // A secret the user gave us is never shown back.
  return { id, path: connectionPath(token), signingSecret: secretFromUs(builder) ? signingSecret : null };
}

/**
 * Gives the connection a new URL; the old one keeps working until `oldWorksUntil` (null or a
 * time already past: refused at once), time to paste the new one into the builder. Null when
 * the team has no such connection.
 */
export async function rollConnectionUrl(options: {
  teamId: string;
  id: string;
  oldWorksUntil: Date | null;
  actor: AuditActor;
  now?: Date;
}): Promise<{ path: string; oldWorksUntil: Date | null } | null> {
  const token = generateConnectionToken();
  const now = options.now ?? new Date();
  const previousUntil = options.oldWorksUntil && options.oldWorksUntil > now ? options.oldWorksUntil : null;
  const rolled = await db().$transaction(async (tx) => {
    const written = await writeRolledToken(tx, {
      teamId: options.teamId,
      id: options.id,
      tokenDigest: tokenDigest(token),
      tokenHint: tokenHint(token),
      previousUntil,
    });
    if (!written) return false;
    await recordAuditEvent(
      {
        teamId: options.teamId,
        action: "connection.url_rolled",
        actor: options.actor,
        targetId: options.id,
        details: { old_works_until: previousUntil?.toISOString() ?? "none" },
      },
      tx,
    );
    return true;
  });
  return rolled ? { path: connectionPath(token), oldWorksUntil: previousUntil } : null;
}

/** A Generic connection's secret header is chosen by the team: at least this long. */
export const MIN_TEAM_SECRET_LENGTH = 16;

/** Why a secret the team gives for this builder cannot be used; null when it can. */
export function secretProblem(builder: BuilderId, secret: string): string | null {
  const trimmed = secret.trim();
  if (!trimmed || trimmed.length > 500) return "Paste the secret (at most 500 characters).";
  if (BUILDERS[builder].secretFrom === "team") {
    if (trimmed.length < MIN_TEAM_SECRET_LENGTH)
      return `Choose a secret of at least ${MIN_TEAM_SECRET_LENGTH} characters (a random one: it guards the URL).`;
    // An HTTP header's value arrives as bytes, read as Latin-1: a secret beyond ASCII would never match.
    if (!/^[\x21-\x7e]+$/.test(trimmed)) return "Use letters, digits and ASCII punctuation only, no spaces (it travels in an HTTP header).";
  }
  return null;
}

/**
 * Sets the secret a builder made (Webflow), or a Generic connection's secret header,
 * replacing any earlier one: deliveries are checked with it from now on. False when the team
 * has no such connection, its builder takes no secret from the team (ours are generated,
 * shown once, and rolled with a new connection), or the secret is unusable (secretProblem).
 */
export async function setConnectionSigningSecret(options: {
  teamId: string;
  id: string;
  secret: string;
  actor: AuditActor;
}): Promise<boolean> {
  const secret = options.secret.trim();
  if (!secret) return false;
  return db().$transaction(async (tx) => {
    const connection = await findConnectionIn(tx, { teamId: options.teamId, id: options.id });
    if (!connection || !secretSetByTeam(connection.builder) || secretProblem(connection.builder, secret)) return false;
    await writeSigningSecret(tx, { id: options.id, ciphertext: seal(secret, signingSecretContext(options.id)) });
    await recordAuditEvent({ teamId: options.teamId, action: "connection.secret_set", actor: options.actor, targetId: options.id }, tx);
    return true;
  });
}

/** Turns a connection off (its deliveries are refused and logged) or on again; false when there is no such connection. */
export async function setConnectionEnabled(options: { teamId: string; id: string; enabled: boolean; actor: AuditActor }): Promise<boolean> {
  return db().$transaction(async (tx) => {
    if (!(await writeConnectionEnabled(tx, options))) return false;
    const action = options.enabled ? "connection.enabled" : "connection.disabled";
    await recordAuditEvent({ teamId: options.teamId, action, actor: options.actor, targetId: options.id }, tx);
    return true;
  });
}

/** Replaces the connection's mapping (answer key → lead field, "extra" or "ignore"); false when there is no such connection. */
export async function setConnectionMapping(options: {
  teamId: string;
  id: string;
  mapping: AnswerOverrides;
  actor: AuditActor;
}): Promise<boolean> {
  return db().$transaction(async (tx) => {
    if (!(await writeConnectionMapping(tx, options))) return false;
    const details = { keys: Object.keys(options.mapping).length };
    await recordAuditEvent(
      { teamId: options.teamId, action: "connection.mapping_changed", actor: options.actor, targetId: options.id, details },
      tx,
    );
    return true;
  });
}

/** Sets what a repeat submission to the connection does (audited when it changes); false when there is no such connection. */
export async function setConnectionRepeats(options: { teamId: string; id: string; repeats: Repeats; actor: AuditActor }): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const before = await writeConnectionRepeats(tx, options);
    if (!before) return false;
    if (before.repeats !== options.repeats) {
      await recordAuditEvent(
        {
          teamId: options.teamId,
          action: "connection.repeats_set",
          actor: options.actor,
          targetId: options.id,
          details: { name: before.name, from: before.repeats, to: options.repeats },
        },
        tx,
      );
    }
    return true;
  });
}

/** Turns the spam checks of the connection's submissions on or off (audited when it changes); false when there is no such connection. */
export async function setConnectionSpamChecks(options: {
  teamId: string;
  id: string;
  spamChecks: boolean;
  actor: AuditActor;
}): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const before = await writeConnectionSpamChecks(tx, options);
    if (!before) return false;
    if (before.spamChecks !== options.spamChecks) {
      await recordAuditEvent(
        {
          teamId: options.teamId,
          action: "connection.spam_checks_set",
          actor: options.actor,
          targetId: options.id,
          details: { name: before.name, from: before.spamChecks, to: options.spamChecks },
        },
        tx,
      );
    }
    return true;
  });
}

export async function deleteConnection(options: { teamId: string; id: string; actor: AuditActor }): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const removed = await removeConnection(tx, options);
    if (!removed) return false;
    // Its held deliveries go with it (docs/consent.md "Connections"): nothing could create their leads.
    await deleteChannelHeld(tx, { kind: "connection", id: options.id });
    await recordAuditEvent(
      { teamId: options.teamId, action: "connection.deleted", actor: options.actor, targetId: options.id, details: { name: removed.name } },
      tx,
    );
    return true;
  });
}
