"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { MANAGERS, withTeamRole, type ActionResult } from "@/lib/auth/require-team-role";
import { expiryFrom, ROLL_CHOICES } from "@/lib/api-keys/key-expiry";
import { now } from "@/lib/time/clock";
import { addEndpoint, editEndpoint, resendDelivery, sendTestEvent, type EndpointFields } from "@/lib/webhooks/webhook-admin";
import { deleteEndpoint, revealSigningSecret, rotateSigningSecret, setEndpointEnabled } from "@/lib/webhooks/webhook-endpoint-changes";

// Owners and admins manage a team's webhook endpoints; members only see them. Each action
// checks the Origin, the session and the role itself (withTeamRole).

const idSchema = z.string().min(1).max(100);
const descriptionSchema = z.string().trim().max(200).optional();
const webhooksPath = (slug: string) => `/t/${slug}/settings/webhooks`;
const GONE = "That endpoint does not exist (it may have been deleted).";

type EndpointInput = { url: string; description?: string; events: string[] };

/** The fields of the add and edit dialogs, parsed; the rules (https, events) are webhook-admin's. */
function parseEndpointInput(input: EndpointInput): { ok: true; fields: EndpointFields } | { ok: false; error: string } {
  const description = descriptionSchema.safeParse(input?.description);
  if (!description.success) return { ok: false, error: "The description can be at most 200 characters." };
  const events = z.array(z.string().max(100)).max(10).safeParse(input?.events);
  return { ok: true, fields: { url: String(input?.url ?? ""), description: description.data, events: events.success ? events.data : [] } };
}

export async function addEndpointAction(slug: string, input: EndpointInput): Promise<ActionResult<{ id: string }>> {
  return withTeamRole<{ id: string }>(slug, MANAGERS, async ({ team, actor }) => {
    const parsed = parseEndpointInput(input);
    if (!parsed.ok) return parsed;
    const result = await addEndpoint({ ...parsed.fields, teamId: team.id, actor });
    revalidatePath(webhooksPath(team.slug));
    return result;
  });
}

export async function editEndpointAction(slug: string, endpointId: string, input: EndpointInput): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const id = idSchema.safeParse(endpointId);
    if (!id.success) return { ok: false, error: GONE };
    const parsed = parseEndpointInput(input);
    if (!parsed.ok) return parsed;
    const result = await editEndpoint({ ...parsed.fields, id: id.data, teamId: team.id, actor });
    revalidatePath(webhooksPath(team.slug), "layout");
    return result;
  });
}

const rotateSchema = z.enum(ROLL_CHOICES);

/** A new signing secret; the old one keeps signing beside it until the chosen time ("now": not at all). */
export async function rotateSecretAction(
  slug: string,
  endpointId: string,
  oldSecretExpiry: string,
): Promise<ActionResult<{ secret: string }>> {
  return withTeamRole<{ secret: string }>(slug, MANAGERS, async ({ team, actor }) => {
    const id = idSchema.safeParse(endpointId);
    const expiry = rotateSchema.safeParse(oldSecretExpiry);
    if (!expiry.success) return { ok: false, error: "Choose when the old secret stops signing from the list." };
    const at = now();
    const rotated = id.success
      ? await rotateSigningSecret({ id: id.data, teamId: team.id, now: at, previousUntil: expiryFrom(expiry.data, at)!, actor })
      : null;
    revalidatePath(`${webhooksPath(team.slug)}/${endpointId}`);
    return rotated
      ? { ok: true, secret: rotated.secret }
      : {
          ok: false,
          error: "The secret was not rotated: the endpoint was deleted, or someone else rotated it just now. Reload and try again.",
        };
  });
}

export async function setEndpointEnabledAction(slug: string, endpointId: string, enabled: boolean): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const id = idSchema.safeParse(endpointId);
    const done = id.success && (await setEndpointEnabled({ id: id.data, teamId: team.id, enabled: enabled === true, actor }));
    revalidatePath(webhooksPath(team.slug), "layout");
    return done ? { ok: true } : { ok: false, error: GONE };
  });
}

export async function deleteEndpointAction(slug: string, endpointId: string): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const id = idSchema.safeParse(endpointId);
    const done = id.success && (await deleteEndpoint({ id: id.data, teamId: team.id, actor }));
    revalidatePath(webhooksPath(team.slug), "layout");
    return done ? { ok: true } : { ok: false, error: GONE };
  });
}

export async function revealSecretAction(slug: string, endpointId: string): Promise<ActionResult<{ secret: string }>> {
  return withTeamRole<{ secret: string }>(slug, MANAGERS, async ({ team, actor }) => {
    const id = idSchema.safeParse(endpointId);
    const secret = id.success ? await revealSigningSecret({ id: id.data, teamId: team.id, actor }) : null;
    return secret ? { ok: true, secret } : { ok: false, error: GONE };
  });
}

export async function sendTestEventAction(slug: string, endpointId: string): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const id = idSchema.safeParse(endpointId);
    const sent = id.success && (await sendTestEvent({ endpointId: id.data, team, actor }));
    revalidatePath(`${webhooksPath(team.slug)}/${endpointId}`);
    return sent ? { ok: true } : { ok: false, error: "Enable the endpoint first (or it was deleted)." };
  });
}

export async function resendDeliveryAction(slug: string, endpointId: string, jobId: string): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const ids = z.tuple([idSchema, idSchema]).safeParse([endpointId, jobId]);
    const resent = ids.success && (await resendDelivery({ endpointId: ids.data[0], jobId: ids.data[1], teamId: team.id, actor }));
    revalidatePath(`${webhooksPath(team.slug)}/${endpointId}`);
    return resent ? { ok: true } : { ok: false, error: "Only a failed delivery of an enabled endpoint can be resent." };
  });
}
