"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { expiryFrom, ROLL_CHOICES } from "@/lib/api-keys/key-expiry";
import { MANAGERS, withTeamRole, type ActionResult } from "@/lib/auth/require-team-role";
import { setChannelConsent } from "@/lib/consent/consent-changes";
import { parseConsentSettings } from "@/lib/consent/consent-settings";
import { isBuilderId } from "@/lib/connections/builders";
import { CHANNEL_REPEATS_DEFAULT } from "@/lib/leads/repeats";
import { parseRepeatsChoice } from "@/lib/leads/repeats-choice";
import {
  ConnectionLimitReached,
  createConnection,
  deleteConnection,
  rollConnectionUrl,
  secretProblem,
  setConnectionEnabled,
  setConnectionMapping,
  setConnectionRepeats,
  setConnectionSigningSecret,
} from "@/lib/connections/connection-changes";
import { findConnection } from "@/lib/connections/connection-store";
import { deleteKeptDelivery } from "@/lib/connections/delivery-changes";
import { isAnswerTarget, type AnswerTarget } from "@/lib/connections/map-answers";
import { publicBaseUrl } from "@/lib/http/public-url";
import { changeSpamChecks } from "@/lib/spam/channel-spam-checks";
import { CHANNEL_SPAM_CHECKS_DEFAULT, parseSpamChecksChoice, spamChecksWord } from "@/lib/spam/spam-checks-setting";
import { replayDelivery } from "@/lib/intake/receive-delivery";
import { now } from "@/lib/time/clock";

// Owners and admins connect form builders and change connections; every member sees them.
// Each action checks the Origin, the session and the role itself (withTeamRole). The URL
// and the signing secret are returned once, by create and roll: nothing can read them again.

const connectionsPath = (slug: string) => `/t/${slug}/settings/connections`;
const GONE = "That connection does not exist (it may have been deleted).";
const DELIVERY_GONE = "That delivery is not kept any more (it made its lead, or was deleted).";

export async function createConnectionAction(
  slug: string,
  builder: string,
  name: string,
  repeatsChoice: string = CHANNEL_REPEATS_DEFAULT,
  spamChecksChoice: string = spamChecksWord(CHANNEL_SPAM_CHECKS_DEFAULT),
): Promise<ActionResult<{ id: string; url: string; signingSecret: string | null }>> {
  return withTeamRole<{ id: string; url: string; signingSecret: string | null }>(slug, MANAGERS, async ({ team, user, actor }) => {
    if (!isBuilderId(builder)) return { ok: false, error: "Choose a form builder." };
    if (typeof name !== "string" || name.length > 100) return { ok: false, error: "The name can be at most 100 characters." };
    const choice = parseRepeatsChoice(repeatsChoice);
    if ("problem" in choice) return { ok: false, error: choice.problem };
    const { repeats } = choice;
    const checks = parseSpamChecksChoice(spamChecksChoice);
    if ("problem" in checks) return { ok: false, error: checks.problem };
    let created;
    try {
      created = await createConnection({
        teamId: team.id,
        builder,
        name,
        repeats,
        spamChecks: checks.spamChecks,
        createdById: user.id,
        actor,
      });
    } catch (error) {
      if (error instanceof ConnectionLimitReached) return { ok: false, error: error.message };
      throw error;
    }
    revalidatePath(connectionsPath(team.slug));
    return { ok: true, id: created.id, url: `${await publicBaseUrl()}${created.path}`, signingSecret: created.signingSecret };
  });
}

/** A new URL; the old one works until the chosen time (ROLL_CHOICES: "now" refuses it at once). */
export async function rollConnectionUrlAction(
  slug: string,
  id: string,
  oldUrlWorks: string,
): Promise<ActionResult<{ url: string; oldWorksUntil: string | null }>> {
  return withTeamRole<{ url: string; oldWorksUntil: string | null }>(slug, MANAGERS, async ({ team, actor }) => {
    const choice = ROLL_CHOICES.find((value) => value === oldUrlWorks);
    if (!choice) return { ok: false, error: "Choose until when the old URL works from the list." };
    const at = now();
    const oldWorksUntil = expiryFrom(choice, at);
    const rolled = typeof id === "string" ? await rollConnectionUrl({ teamId: team.id, id, oldWorksUntil, actor, now: at }) : null;
    if (!rolled) return { ok: false, error: GONE };
    revalidatePath(connectionsPath(team.slug), "layout");
    return { ok: true, url: `${await publicBaseUrl()}${rolled.path}`, oldWorksUntil: rolled.oldWorksUntil?.toISOString() ?? null };
  });
}

export async function setConnectionEnabledAction(slug: string, id: string, enabled: boolean): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const changed = typeof id === "string" && (await setConnectionEnabled({ teamId: team.id, id, enabled: enabled === true, actor }));
    revalidatePath(connectionsPath(team.slug), "layout");
    return changed ? { ok: true } : { ok: false, error: GONE };
  });
}

export async function deleteConnectionAction(slug: string, id: string): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const deleted = typeof id === "string" && (await deleteConnection({ teamId: team.id, id, actor }));
    revalidatePath(connectionsPath(team.slug), "layout");
    return deleted ? { ok: true } : { ok: false, error: GONE };
  });
}

/** Replaces the mapping: answer key → a lead field, "extra" or "ignore"; keys left "auto" are not stored. */
export async function setConnectionMappingAction(slug: string, id: string, mapping: Record<string, string>): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    if (typeof mapping !== "object" || mapping === null || Object.keys(mapping).length > 200)
      return { ok: false, error: "That mapping cannot be saved." };
    const overrides: Record<string, AnswerTarget> = {};
    for (const [key, target] of Object.entries(mapping)) {
      if (target === "auto") continue;
      if (typeof key !== "string" || key.length > 500 || !isAnswerTarget(target))
        return { ok: false, error: "That mapping cannot be saved." };
      overrides[key] = target;
    }
    const changed = typeof id === "string" && (await setConnectionMapping({ teamId: team.id, id, mapping: overrides, actor }));
    revalidatePath(connectionsPath(team.slug), "layout");
    return changed ? { ok: true } : { ok: false, error: GONE };
  });
}

/** What a repeat submission to the connection does (docs/leads.md "Repeat submissions"). */
export async function setConnectionRepeatsAction(slug: string, id: string, repeatsChoice: string): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const choice = parseRepeatsChoice(repeatsChoice);
    if ("problem" in choice) return { ok: false, error: choice.problem };
    const { repeats } = choice;
    const changed = typeof id === "string" && (await setConnectionRepeats({ teamId: team.id, id, repeats, actor }));
    revalidatePath(connectionsPath(team.slug), "layout");
    return changed ? { ok: true } : { ok: false, error: GONE };
  });
}

/** Whether the spam checks run on the connection's submissions ("on" or "off"; docs/spam.md "Per channel"). */
export async function setConnectionSpamChecksAction(slug: string, id: string, choice: string): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, role, actor }) => {
    const result = await changeSpamChecks({ channel: "connection", teamId: team.id, id, choice, role, actor });
    revalidatePath(connectionsPath(team.slug), "layout");
    return result;
  });
}

/** Makes the lead of a delivery kept as "needs mapping", by the mapping as it is now. */
export async function replayDeliveryAction(
  slug: string,
  deliveryId: string,
): Promise<ActionResult<{ leadId: string | null; reason: string | null }>> {
  return withTeamRole<{ leadId: string | null; reason: string | null }>(slug, MANAGERS, async ({ team, actor }) => {
    if (typeof deliveryId !== "string") return { ok: false, error: "That delivery is not kept any more." };
    const replayed = await replayDelivery({
      teamId: team.id,
      deliveryId,
      context: { requestId: `replay-${deliveryId}`, ip: actor.ip ?? "" },
    });
    revalidatePath(connectionsPath(team.slug), "layout");
    if (!replayed) return { ok: false, error: DELIVERY_GONE };
    if (replayed.kind === "needs_mapping") return { ok: true, leadId: null, reason: replayed.reason };
    return { ok: true, leadId: replayed.kind === "created" ? replayed.result.leadId : replayed.leadId, reason: null };
  });
}

/** Deletes one delivery the connection's log keeps (its body with it), then goes back to the connection's page. */
export async function deleteKeptDeliveryAction(slug: string, connectionId: string, deliveryId: string): Promise<ActionResult> {
  let back: string | null = null;
  const result = await withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const deleted =
      typeof connectionId === "string" &&
      typeof deliveryId === "string" &&
      (await deleteKeptDelivery({ teamId: team.id, connectionId, id: deliveryId, actor }));
    if (!deleted) return { ok: false, error: DELIVERY_GONE };
    back = `${connectionsPath(team.slug)}/${connectionId}`;
    revalidatePath(connectionsPath(team.slug), "layout");
    return { ok: true };
  });
  if (back) redirect(back);
  return result;
}

/** Sets the signing secret a builder made (Webflow), or Generic's secret header: deliveries are checked with it from now on. */
export async function setConnectionSecretAction(slug: string, id: string, secret: string): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    if (typeof id !== "string" || typeof secret !== "string") return { ok: false, error: GONE };
    const connection = await findConnection({ teamId: team.id, id });
    if (!connection) return { ok: false, error: GONE };
    const problem = secretProblem(connection.builder, secret);
    if (problem) return { ok: false, error: problem };
    const set = await setConnectionSigningSecret({ teamId: team.id, id, secret, actor });
    revalidatePath(connectionsPath(team.slug), "layout");
    return set ? { ok: true } : { ok: false, error: GONE };
  });
}

/** What consent the connection records (docs/consent.md "Connections"): every change of the text makes a new version. */
export async function setConnectionConsentAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult | null> {
  return withTeamRole(form.get("slug"), MANAGERS, async ({ team, actor }) => {
    const id = form.get("connection_id");
    const parsed = parseConsentSettings(form);
    if ("problem" in parsed) return { ok: false, error: parsed.problem };
    const changed =
      typeof id === "string" &&
      (await setChannelConsent({
        teamId: team.id,
        channel: { kind: "connection", id },
        settings: parsed.settings,
        doubleOptIn: parsed.doubleOptIn,
        actor,
      }));
    revalidatePath(connectionsPath(team.slug), "layout");
    return changed ? { ok: true } : { ok: false, error: GONE };
  });
}
