"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { MANAGERS, withTeamRole, type ActionResult } from "@/lib/auth/require-team-role";
import { addEndpoint, resendDelivery, sendTestEvent } from "@/lib/webhooks/webhook-admin";
import { deleteEndpoint, revealSigningSecret, setEndpointEnabled } from "@/lib/webhooks/webhook-endpoint-store";

// Owners and admins manage a team's webhook endpoints; members only see them. Each action
// checks the Origin, the session and the role itself (withTeamRole).

const idSchema = z.string().min(1).max(100);
const descriptionSchema = z.string().trim().max(200).optional();
const webhooksPath = (slug: string) => `/t/${slug}/settings/webhooks`;
const GONE = "That endpoint does not exist (it may have been deleted).";

export async function addEndpointAction(
  slug: string,
  input: { url: string; description?: string; events: string[] },
): Promise<ActionResult<{ id: string }>> {
  return withTeamRole<{ id: string }>(slug, MANAGERS, async ({ team, actor }) => {
    const description = descriptionSchema.safeParse(input.description);
    if (!description.success) return { ok: false, error: "The description can be at most 200 characters." };
    const events = z.array(z.string().max(100)).max(10).safeParse(input.events);
    const result = await addEndpoint({
      teamId: team.id,
      url: String(input.url ?? ""),
      description: description.data,
      events: events.success ? events.data : [],
      actor,
    });
    revalidatePath(webhooksPath(team.slug));
    return result;
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
