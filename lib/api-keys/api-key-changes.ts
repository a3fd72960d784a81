import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { API_KEY_REPEATS_DEFAULT, type Repeats } from "../leads/repeats";
import { log } from "../log/logger";
import { API_KEY_SPAM_CHECKS_DEFAULT } from "../spam/spam-checks-setting";
import {
  deleteKeyRow,
  findKeySettings,
  findKeyTeam,
  insertApiKey,
  takePendingSecret,
  writeKeyRepeats,
  writeKeySettings,
  writeKeySpamChecks,
} from "./api-key-store";
import { generateKeyId, generateSecret } from "./secret";
import { eraseDeletedSecrets } from "../maintenance/secret-erasure";
import { open } from "./secret-box";

// The API keys' changes: create, update, roll, delete, the repeat setting, the spam checks and a secret's first copy. Each is
// written with its audit event in one transaction (the rows are api-key-store.ts'), and a
// refused change writes neither. `actor` says who and from where (the web UI passes the
// signed-in user and the client address); without it, a change with a user is taken as
// the web UI's and one without as the CLI's.

export type NewApiKey = { keyId: string; secret: string };

function actorOf(actor: AuditActor | undefined, userId: string | null | undefined): AuditActor {
  return actor ?? { userId: userId ?? null, ip: null, via: userId ? "web" : "cli" };
}

/**
 * A new key. With `shownToOperator` (the CLI, which prints the secret once) the key is born
 * copied: the printing was its one copy, so no recoverable secret is kept and the web UI
 * shows it masked from the start; the audit trail says the secret was shown to the operator.
 */
export async function createApiKey(options: {
  teamId: string;
  description?: string | null;
  createdById?: string | null;
  actor?: AuditActor;
  shownToOperator?: boolean;
  /** After this instant the key is refused; null or absent: never. */
  expiresAt?: Date | null;
  /** What a repeat submission does (docs/leads.md "Repeat submissions"); absent: API_KEY_REPEATS_DEFAULT. */
  repeats?: Repeats;
  /** Whether the spam checks run on its submissions (docs/spam.md "Per channel"); absent: API_KEY_SPAM_CHECKS_DEFAULT (off). */
  spamChecks?: boolean;
}): Promise<NewApiKey> {
  const keyId = generateKeyId();
  const secret = generateSecret();
  const description = options.description?.trim() || null;
  const repeats = options.repeats ?? API_KEY_REPEATS_DEFAULT;
  const spamChecks = options.spamChecks ?? API_KEY_SPAM_CHECKS_DEFAULT;
  const actor = actorOf(options.actor, options.createdById);
  await db().$transaction(async (tx) => {
    await insertApiKey(tx, {
      keyId,
      teamId: options.teamId,
      description,
      createdById: options.createdById ?? null,
      secret,
      expiresAt: options.expiresAt ?? null,
      bornCopied: options.shownToOperator === true,
      repeats,
      spamChecks,
    });
    await recordAuditEvent(
      {
        teamId: options.teamId,
        action: "api_key.generated",
        actor,
        targetId: keyId,
        details: { description, repeats, spamChecks, ...(options.expiresAt ? { expires_at: options.expiresAt.toISOString() } : {}) },
      },
      tx,
    );
    if (options.shownToOperator) {
      await recordAuditEvent(
        { teamId: options.teamId, action: "api_key.secret_shown", actor, targetId: keyId, details: { description } },
        tx,
      );
    }
  });
  return { keyId, secret };
}

/** Deletes a key; with a teamId, only that team's key. Returns whether a key was deleted. */
export async function deleteApiKey(options: { keyId: string; teamId?: string; actor?: AuditActor }): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const key = await findKeyTeam(tx, options);
    if (!key) return false;
    const count = await deleteKeyRow(tx, options);
    if (count === 1 && key.teamId) {
      await recordAuditEvent(
        { teamId: key.teamId, action: "api_key.deleted", actor: actorOf(options.actor, null), targetId: options.keyId },
        tx,
      );
    }
    return count === 1;
  });
}

/**
 * Changes a key's description and/or expiry (owners and admins; audited, one event per
 * change). `expiresAt` undefined keeps the expiry, null removes it. Returns false when the
 * team has no such key.
 */
export async function updateApiKey(options: {
  keyId: string;
  teamId: string;
  description?: string | null;
  expiresAt?: Date | null;
  actor?: AuditActor;
}): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const key = await findKeySettings(tx, options);
    if (!key) return false;
    const description = options.description === undefined ? key.description : options.description?.trim() || null;
    const expiresAt = options.expiresAt === undefined ? key.expiresAt : options.expiresAt;
    await writeKeySettings(tx, options.keyId, { description, expiresAt });
    const actor = actorOf(options.actor, null);
    if (description !== key.description) {
      await recordAuditEvent(
        {
          teamId: options.teamId,
          action: "api_key.renamed",
          actor,
          targetId: options.keyId,
          details: { from: key.description, to: description, description },
        },
        tx,
      );
    }
    if ((expiresAt?.getTime() ?? null) !== (key.expiresAt?.getTime() ?? null)) {
      await recordAuditEvent(
        {
          teamId: options.teamId,
          action: "api_key.expiry_set",
          actor,
          targetId: options.keyId,
          details: { expires_at: expiresAt?.toISOString() ?? null, description },
        },
        tx,
      );
    }
    return true;
  });
}

/**
 * Sets what a repeat submission sent with the key does (owners and admins, or the operator's
 * CLI without a team; audited when it changes). False when there is no such key (of that
 * team, when given).
 */
export async function setApiKeyRepeats(options: {
  keyId: string;
  teamId?: string;
  repeats: Repeats;
  actor?: AuditActor;
}): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const key = await writeKeyRepeats(tx, options);
    if (!key) return false;
    if (key.teamId && key.repeats !== options.repeats) {
      await recordAuditEvent(
        {
          teamId: key.teamId,
          action: "api_key.repeats_set",
          actor: actorOf(options.actor, null),
          targetId: options.keyId,
          details: { from: key.repeats, to: options.repeats, description: key.description },
        },
        tx,
      );
    }
    return true;
  });
}

/**
 * Turns the spam checks of the key's submissions on or off (owners and admins, or the
 * operator's CLI without a team; audited when it changes). False when there is no such key
 * (of that team, when given).
 */
export async function setApiKeySpamChecks(options: {
  keyId: string;
  teamId?: string;
  spamChecks: boolean;
  actor?: AuditActor;
}): Promise<boolean> {
  return db().$transaction(async (tx) => {
    const key = await writeKeySpamChecks(tx, options);
    if (!key) return false;
    if (key.teamId && key.spamChecks !== options.spamChecks) {
      await recordAuditEvent(
        {
          teamId: key.teamId,
          action: "api_key.spam_checks_set",
          actor: actorOf(options.actor, null),
          targetId: options.keyId,
          details: { from: key.spamChecks, to: options.spamChecks, description: key.description },
        },
        tx,
      );
    }
    return true;
  });
}

/**
 * Rolls a key: a replacement (new id and secret, the same description, repeat setting and spam checks) and an expiry for
 * the old key, both in one transaction with their audit events. An old key that already
 * expires sooner keeps its earlier expiry. Returns null when the team has no such key.
 */
export async function rollApiKey(options: {
  keyId: string;
  teamId: string;
  /** When the old key stops working. */
  oldKeyExpiresAt: Date;
  createdById: string | null;
  actor?: AuditActor;
}): Promise<NewApiKey | null> {
  const keyId = generateKeyId();
  const secret = generateSecret();
  const actor = actorOf(options.actor, options.createdById);
  return db().$transaction(async (tx) => {
    const old = await findKeySettings(tx, options);
    if (!old) return null;
    const expiresAt = old.expiresAt && old.expiresAt < options.oldKeyExpiresAt ? old.expiresAt : options.oldKeyExpiresAt;
    await writeKeySettings(tx, options.keyId, { expiresAt });
    await insertApiKey(tx, {
      keyId,
      teamId: options.teamId,
      description: old.description,
      createdById: options.createdById,
      secret,
      expiresAt: null,
      bornCopied: false,
      repeats: old.repeats,
      spamChecks: old.spamChecks,
    });
    await recordAuditEvent(
      {
        teamId: options.teamId,
        action: "api_key.generated",
        actor,
        targetId: keyId,
        details: { description: old.description, replaces: options.keyId },
      },
      tx,
    );
    await recordAuditEvent(
      {
        teamId: options.teamId,
        action: "api_key.rolled",
        actor,
        targetId: options.keyId,
        details: { description: old.description, replacement: keyId, expires_at: expiresAt.toISOString() },
      },
      tx,
    );
    return { keyId, secret };
  });
}

/**
 * The first copy of a secret: returns it and erases the recoverable copy. One conditional
 * update marks the key copied, so of two simultaneous copies only one gets the secret;
 * the same transaction deletes the ciphertext's row and records the copy. Then the
 * database is made to forget the deleted bytes (eraseDeletedSecrets).
 */
export async function takeSecretForCopy(options: {
  keyId: string;
  teamId: string;
  userId: string | null;
  actor?: AuditActor;
}): Promise<string | null> {
  const ciphertext = await db().$transaction(
    async (tx) => {
      const taken = await takePendingSecret(tx, options);
      if (taken === null) return null;
      await recordAuditEvent(
        {
          teamId: options.teamId,
          action: "api_key.secret_copied",
          actor: actorOf(options.actor, options.userId),
          targetId: options.keyId,
        },
        tx,
      );
      return taken;
      // Up to 10 s for a connection, like the lead insert: a burst of copies on a busy
      // machine outwaited Prisma's 2 s default (P2028 in the multi-instance copy race).
    },
    { maxWait: 10_000, timeout: 10_000 },
  );
  if (ciphertext === null) return null;
  // The copy has committed: the secret is handed out even if erasing fails (logged).
  await eraseDeletedSecrets().catch((error: unknown) =>
    log("warn", "api_key.erase_failed", { key_id: options.keyId, error: error instanceof Error ? error.name : "unknown" }),
  );
  return open(ciphertext, options.keyId);
}
