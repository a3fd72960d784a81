"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { createApiKey, deleteApiKey, rollApiKey, setApiKeyRepeats, takeSecretForCopy, updateApiKey } from "@/lib/api-keys/api-key-changes";
import { expiryFrom, EXPIRY_CHOICES, ROLL_CHOICES } from "@/lib/api-keys/key-expiry";
import { MANAGERS, withTeamRole, type ActionResult } from "@/lib/auth/require-team-role";
import { API_KEY_REPEATS_DEFAULT } from "@/lib/leads/repeats";
import { parseRepeatsChoice } from "@/lib/leads/repeats-choice";
import { changeSpamChecks } from "@/lib/spam/channel-spam-checks";
import { API_KEY_SPAM_CHECKS_DEFAULT, parseSpamChecksChoice, spamChecksWord } from "@/lib/spam/spam-checks-setting";
import { ROLES } from "@/lib/teams/team-store";
import { now } from "@/lib/time/clock";

// Spec 5.3: owners and admins generate and delete keys; every member may copy a secret once.
// Each action checks the Origin, the session and the role itself (withTeamRole); the UI
// hiding a button is never the guard. `actor` records the user and address in the audit trail.

const keyIdSchema = z.string().regex(/^[0-9a-f]{20}$/);
const descriptionSchema = z.string().trim().max(200).optional();

const keysPath = (slug: string) => `/t/${slug}/settings/api-keys`;

const expirySchema = z.enum(EXPIRY_CHOICES);
const rollSchema = z.enum(ROLL_CHOICES);

export async function generateApiKeyAction(
  slug: string,
  description?: string,
  expiry: string = "never",
  repeatsChoice: string = API_KEY_REPEATS_DEFAULT,
  spamChecksChoice: string = spamChecksWord(API_KEY_SPAM_CHECKS_DEFAULT),
): Promise<ActionResult<{ keyId: string }>> {
  return withTeamRole<{ keyId: string }>(slug, MANAGERS, async ({ team, user, actor }) => {
    const parsed = descriptionSchema.safeParse(description);
    if (!parsed.success) return { ok: false, error: "The description can be at most 200 characters." };
    const expires = expirySchema.safeParse(expiry);
    if (!expires.success) return { ok: false, error: "Choose when the key expires from the list." };
    const choice = parseRepeatsChoice(repeatsChoice);
    if ("problem" in choice) return { ok: false, error: choice.problem };
    const { repeats } = choice;
    const checks = parseSpamChecksChoice(spamChecksChoice);
    if ("problem" in checks) return { ok: false, error: checks.problem };
    const key = await createApiKey({
      teamId: team.id,
      description: parsed.data,
      createdById: user.id,
      actor,
      expiresAt: expiryFrom(expires.data, now()),
      repeats,
      spamChecks: checks.spamChecks,
    });
    revalidatePath(keysPath(team.slug));
    return { ok: true, keyId: key.keyId };
  });
}

export async function deleteApiKeyAction(slug: string, keyId: string): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const parsed = keyIdSchema.safeParse(keyId);
    // Tenant ownership is in the delete's where clause: another team's key id deletes nothing.
    const deleted = parsed.success && (await deleteApiKey({ keyId: parsed.data, teamId: team.id, actor }));
    revalidatePath(keysPath(team.slug));
    return deleted ? { ok: true } : { ok: false, error: "That key does not exist (it may already be deleted)." };
  });
}

/** The one server step of a copy: returns the secret to the first caller only. */
export async function copyApiSecretAction(slug: string, keyId: string): Promise<ActionResult<{ secret: string }>> {
  return withTeamRole<{ secret: string }>(slug, ROLES, async ({ team, user, actor }) => {
    const parsed = keyIdSchema.safeParse(keyId);
    const secret = parsed.success ? await takeSecretForCopy({ keyId: parsed.data, teamId: team.id, userId: user.id, actor }) : null;
    revalidatePath(keysPath(team.slug));
    return secret
      ? { ok: true, secret }
      : { ok: false, error: "This secret has already been copied and can no longer be shown. Generate a new key if it was lost." };
  });
}

/** Renames a key and/or sets its expiry ("keep" leaves the expiry as it is). */
export async function updateApiKeyAction(slug: string, keyId: string, description: string, expiry: string): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const id = keyIdSchema.safeParse(keyId);
    const parsed = descriptionSchema.safeParse(description);
    if (!parsed.success) return { ok: false, error: "The description can be at most 200 characters." };
    const expires = z.union([z.literal("keep"), expirySchema]).safeParse(expiry);
    if (!expires.success) return { ok: false, error: "Choose when the key expires from the list." };
    const updated =
      id.success &&
      (await updateApiKey({
        keyId: id.data,
        teamId: team.id,
        description: parsed.data ?? null,
        expiresAt: expires.data === "keep" ? undefined : expiryFrom(expires.data, now()),
        actor,
      }));
    revalidatePath(keysPath(team.slug));
    return updated ? { ok: true } : { ok: false, error: "That key does not exist (it may have been deleted)." };
  });
}

/** What a repeat submission sent with the key does (docs/leads.md "Repeat submissions"). */
export async function setApiKeyRepeatsAction(slug: string, keyId: string, repeatsChoice: string): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const choice = parseRepeatsChoice(repeatsChoice);
    if ("problem" in choice) return { ok: false, error: choice.problem };
    const { repeats } = choice;
    const id = keyIdSchema.safeParse(keyId);
    const changed = id.success && (await setApiKeyRepeats({ keyId: id.data, teamId: team.id, repeats, actor }));
    revalidatePath(keysPath(team.slug), "layout");
    return changed ? { ok: true } : { ok: false, error: "That key does not exist (it may have been deleted)." };
  });
}

/** Whether the spam checks run on the key's submissions ("on" or "off"; docs/spam.md "Per channel"). */
export async function setApiKeySpamChecksAction(slug: string, keyId: string, choice: string): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, role, actor }) => {
    const id = keyIdSchema.safeParse(keyId);
    const result = await changeSpamChecks({ channel: "api_key", teamId: team.id, id: id.data, choice, role, actor });
    revalidatePath(keysPath(team.slug), "layout");
    return result;
  });
}

/** Rolls a key: a replacement with the same description; the old key expires as chosen. */
export async function rollApiKeyAction(slug: string, keyId: string, oldKeyExpiry: string): Promise<ActionResult<{ keyId: string }>> {
  return withTeamRole<{ keyId: string }>(slug, MANAGERS, async ({ team, user, actor }) => {
    const id = keyIdSchema.safeParse(keyId);
    const expires = rollSchema.safeParse(oldKeyExpiry);
    if (!expires.success) return { ok: false, error: "Choose when the old key stops working from the list." };
    const replacement = id.success
      ? await rollApiKey({
          keyId: id.data,
          teamId: team.id,
          oldKeyExpiresAt: expiryFrom(expires.data, now())!,
          createdById: user.id,
          actor,
        })
      : null;
    revalidatePath(keysPath(team.slug));
    return replacement
      ? { ok: true, keyId: replacement.keyId }
      : { ok: false, error: "That key does not exist (it may have been deleted)." };
  });
}
