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
import { ANY_LEAD, checkNewLeadFilter, isAnyLead, type NewLeadFilter } from "@/lib/chat/new-lead-filter";
import { newLeadFilterChoices } from "@/lib/chat/new-lead-filter-choices";

// Owners and admins manage a team's chat destinations (Settings → Notifications). Each
// action checks the Origin, the session and the role itself (withTeamRole); the rules and
// the audit are lib/chat/chat-destination-changes.ts'.

const idSchema = z.string().min(1).max(100);
const GONE = "That chat destination does not exist (it may have been deleted).";
const notificationsPath = (slug: string) => `/t/${slug}/settings/notifications`;

/** Which new leads (and repeats) are posted: "all", or "some", those matching every condition ticked. */
export type ChatConditionsInput = { match: string } & Partial<Record<keyof NewLeadFilter, string[]>>;
export type ChatInput = {
  name: string;
  url?: string;
  platform?: string;
  posts: string[];
  fields: string[];
  conditions?: ChatConditionsInput;
};

const values = z.array(z.string().min(1).max(200)).max(500).default([]);
const conditionsSchema = z.object({
  match: z.enum(["all", "some"], { message: "Choose all new leads, or only those matching the conditions." }),
  sourceIds: values,
  formIds: values,
  connectionIds: values,
  apiKeyIds: values,
  channelGroups: values,
  ownerIds: values,
});

/** The new-lead conditions sent, each value one of the team's; or the sentence saying what is wrong. */
async function filterOf(teamId: string, input: ChatConditionsInput | undefined): Promise<{ filter: NewLeadFilter } | { error: string }> {
  if (input === undefined) return { filter: ANY_LEAD };
  const parsed = conditionsSchema.safeParse(input);
  if (!parsed.success)
    return { error: parsed.error.issues[0]?.message ?? "The conditions could not be read. Reload the page and try again." };
  const { match, ...filter } = parsed.data;
  if (match === "all") return { filter: ANY_LEAD };
  if (isAnyLead(filter)) return { error: "Tick at least one condition, or choose All new leads." };
  const wrong = checkNewLeadFilter(filter, await newLeadFilterChoices(teamId));
  return wrong ? { error: wrong } : { filter };
}

async function settingsOf(teamId: string, input: ChatInput): Promise<{ settings: DestinationSettings } | { error: string }> {
  const posts = Array.isArray(input?.posts) ? input.posts.map(String) : [];
  const fields = Array.isArray(input?.fields) ? input.fields.map(String) : [];
  const conditions = await filterOf(teamId, input?.conditions);
  if ("error" in conditions) return conditions;
  return {
    settings: {
      name: String(input?.name ?? "").slice(0, 200),
      postNewLeads: posts.includes("new"),
      newLeadFilter: conditions.filter,
      postAssignments: posts.includes("assigned"),
      postReminders: posts.includes("reminder"),
      postRepeats: posts.includes("repeat"),
      includeFields: CONTACT_FIELDS.filter((field) => fields.includes(field)),
    },
  };
}

export async function addChatAction(slug: string, input: ChatInput): Promise<ActionResult<{ id: string }>> {
  return withTeamRole<{ id: string }>(slug, MANAGERS, async ({ team, actor }) => {
    const platform = z.enum(CHAT_PLATFORMS).safeParse(input?.platform);
    const read = await settingsOf(team.id, input);
    if ("error" in read) return { ok: false, error: read.error };
    const result = await addChatDestination({
      teamId: team.id,
      url: String(input?.url ?? "").slice(0, 2000),
      platform: platform.success ? platform.data : null,
      settings: read.settings,
      actor,
    });
    revalidatePath(notificationsPath(team.slug));
    return result.ok ? result : { ok: false, error: result.message };
  });
}

export async function editChatAction(slug: string, destinationId: string, input: ChatInput): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const id = idSchema.safeParse(destinationId);
    const read = await settingsOf(team.id, input);
    if ("error" in read) return { ok: false, error: read.error };
    const { settings } = read;
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
