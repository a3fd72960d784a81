"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { MANAGERS, withTeamRole, type ActionResult } from "@/lib/auth/require-team-role";
import {
  addChatDestination,
  deleteChatDestination,
  sendChatTestMessage,
  setChatDestinationEnabled,
  updateChatDestination,
} from "@/lib/chat/chat-destination-changes";
import { CONTACT_FIELDS, type DestinationSettings } from "@/lib/chat/chat-destination-store";
import { CHAT_PLATFORMS } from "@/lib/chat/chat-platforms";
import { ANY_LEAD } from "@/lib/chat/new-lead-filter";

// Owners and admins manage a team's chat destinations (Settings → Notifications). Each
// action checks the Origin, the session and the role itself (withTeamRole); the rules and
// the audit are lib/chat/chat-destination-changes.ts'.

const idSchema = z.string().min(1).max(100);
const GONE = "That chat destination does not exist (it may have been deleted).";
const notificationsPath = (slug: string) => `/t/${slug}/settings/notifications`;

export type ChatInput = { name: string; url?: string; platform?: string; posts: string[]; fields: string[] };

function settingsOf(input: ChatInput): DestinationSettings {
  const posts = Array.isArray(input?.posts) ? input.posts.map(String) : [];
  const fields = Array.isArray(input?.fields) ? input.fields.map(String) : [];
  return {
    name: String(input?.name ?? "").slice(0, 200),
    postNewLeads: posts.includes("new"),
    newLeadFilter: ANY_LEAD,
    postAssignments: posts.includes("assigned"),
    postReminders: posts.includes("reminder"),
    includeFields: CONTACT_FIELDS.filter((field) => fields.includes(field)),
  };
}

export async function addChatAction(slug: string, input: ChatInput): Promise<ActionResult<{ id: string }>> {
  return withTeamRole<{ id: string }>(slug, MANAGERS, async ({ team, actor }) => {
    const platform = z.enum(CHAT_PLATFORMS).safeParse(input?.platform);
    const result = await addChatDestination({
      teamId: team.id,
      url: String(input?.url ?? "").slice(0, 2000),
      platform: platform.success ? platform.data : null,
      settings: settingsOf(input),
      actor,
    });
    revalidatePath(notificationsPath(team.slug));
    return result.ok ? result : { ok: false, error: result.message };
  });
}

export async function editChatAction(slug: string, destinationId: string, input: ChatInput): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const id = idSchema.safeParse(destinationId);
    const settings = settingsOf(input);
    if (!settings.name.trim() || settings.name.trim().length > 100)
      return { ok: false, error: "Give the destination a name of 1 to 100 characters." };
    const done = id.success && (await updateChatDestination({ id: id.data, teamId: team.id, settings, actor }));
    revalidatePath(notificationsPath(team.slug));
    return done ? { ok: true } : { ok: false, error: GONE };
  });
}

export async function setChatEnabledAction(slug: string, destinationId: string, enabled: boolean): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const id = idSchema.safeParse(destinationId);
    const done = id.success && (await setChatDestinationEnabled({ id: id.data, teamId: team.id, enabled: enabled === true, actor }));
    revalidatePath(notificationsPath(team.slug));
    return done ? { ok: true } : { ok: false, error: GONE };
  });
}

export async function deleteChatAction(slug: string, destinationId: string): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const id = idSchema.safeParse(destinationId);
    const done = id.success && (await deleteChatDestination({ id: id.data, teamId: team.id, actor }));
    revalidatePath(notificationsPath(team.slug));
    return done ? { ok: true } : { ok: false, error: GONE };
  });
}

export async function testChatAction(slug: string, destinationId: string): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const id = idSchema.safeParse(destinationId);
    const sent =
      id.success && (await sendChatTestMessage({ id: id.data, teamId: team.id, teamSlug: team.slug, teamName: team.name, actor }));
    revalidatePath(notificationsPath(team.slug));
    return sent ? { ok: true } : { ok: false, error: GONE };
  });
}
