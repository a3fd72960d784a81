import { db } from "../db/client";
import { parseRepeats, type Repeats } from "../leads/repeats";
import { maskSecret } from "./secret";
import { open } from "./secret-box";

// The team's keys as pages show them: the API Keys list (with the secret until its first
// copy), a key's description and the keys' labels for the lead pages.

export type ApiKeyListItem = {
  keyId: string;
  description: string | null;
  createdAt: Date;
  /** Who generated the key: a user (email, or null once deleted), or the operator CLI. */
  createdBy: { via: "cli" } | { via: "web"; email: string | null };
  copied: boolean;
  copiedAt: Date | null;
  /** Who copied the secret: a user (email, or null once deleted), or the CLI operator it was printed to. */
  copiedBy: { via: "cli" } | { via: "web"; email: string | null } | null;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  /** What a repeat submission sent with the key does (docs/leads.md "Repeat submissions"). */
  repeats: Repeats;
  /** Whether the spam checks run on its submissions (docs/spam.md "Per channel"). */
  spamChecks: boolean;
  /** The full secret until its first copy, then the masked form. */
  secretDisplay: string;
  /** The masked form, which the page shows at once after a copy. */
  secretMasked: string;
};

export async function listApiKeys(teamId: string): Promise<ApiKeyListItem[]> {
  const rows = await db().apiKey.findMany({
    where: { teamId },
    orderBy: { createdAt: "desc" },
    include: { pendingSecret: { select: { ciphertext: true } } },
  });
  const userIds = [...new Set(rows.flatMap((r) => [r.createdById, r.copiedById]).filter((id): id is string => id !== null))];
  const users = userIds.length ? await db().user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true } }) : [];
  const emailOf = new Map(users.map((u) => [u.id, u.email]));
  const person = (userId: string | null) =>
    userId === null ? ({ via: "cli" } as const) : ({ via: "web", email: emailOf.get(userId) ?? null } as const);
  return rows.map((row) => {
    const pending = row.copiedAt === null ? row.pendingSecret : null;
    return {
      keyId: row.id,
      description: row.description,
      createdAt: row.createdAt,
      createdBy: person(row.createdById),
      copied: pending === null,
      copiedAt: row.copiedAt,
      copiedBy: row.copiedAt === null ? null : person(row.copiedById),
      lastUsedAt: row.lastUsedAt,
      expiresAt: row.expiresAt,
      repeats: parseRepeats(row.repeats) ?? "new",
      spamChecks: row.spamChecks,
      secretDisplay: pending ? open(pending.ciphertext, row.id) : maskSecret(row.secretPrefix),
      secretMasked: maskSecret(row.secretPrefix),
    };
  });
}

/** The description of one of the team's keys, or null when the key is gone (the lead detail names its key). */
export async function findApiKeyDescription(options: { keyId: string; teamId: string }): Promise<{ description: string | null } | null> {
  return db().apiKey.findFirst({ where: { id: options.keyId, teamId: options.teamId }, select: { description: true } });
}

/** The description, repeat setting and spam checks of one of the team's keys (the key's page), or null when the key is gone. */
export async function findApiKeyPage(options: {
  keyId: string;
  teamId: string;
}): Promise<{ description: string | null; repeats: Repeats; spamChecks: boolean } | null> {
  const row = await db().apiKey.findFirst({
    where: { id: options.keyId, teamId: options.teamId },
    select: { description: true, repeats: true, spamChecks: true },
  });
  return row && { description: row.description, repeats: parseRepeats(row.repeats) ?? "new", spamChecks: row.spamChecks };
}

/** The team's key ids and descriptions, oldest first (the lead list's "created by key" filter). */
export async function listApiKeyLabels(teamId: string): Promise<{ keyId: string; description: string | null }[]> {
  const rows = await db().apiKey.findMany({ where: { teamId }, orderBy: { createdAt: "asc" }, select: { id: true, description: true } });
  return rows.map((row) => ({ keyId: row.id, description: row.description }));
}
