import { listApiKeyLabels } from "../api-keys/api-key-list";
import { CHANNEL_GROUPS } from "../attribution/channel-groups";
import { listConnectionLabels } from "../connections/connection-store";
import { listLeadSourceNames } from "../teams/lead-sources";
import { listMembers } from "../teams/team-store";
import { listWebFormLabels } from "../web-forms/web-form-store";
import type { NewLeadFilterChoices } from "./new-lead-filter";

// What a chat destination's new-lead conditions may name (docs/notifications.md "Which new
// leads"): the team's own sources, web forms, connections, API keys (by description, never a
// secret), members and the ten channel groups. The page offers these; the server action
// refuses any other value (new-lead-filter.ts checkNewLeadFilter).

/** The team's choices of each condition. */
export async function newLeadFilterChoices(teamId: string): Promise<NewLeadFilterChoices> {
  const [sources, forms, connections, keys, members] = await Promise.all([
    listLeadSourceNames(teamId),
    listWebFormLabels(teamId),
    listConnectionLabels(teamId),
    listApiKeyLabels(teamId),
    listMembers(teamId),
  ]);
  const named = (rows: readonly { id: string; name: string }[]) => rows.map((row) => ({ value: row.id, label: row.name }));
  return {
    sourceIds: named(sources),
    formIds: named(forms),
    connectionIds: named(connections),
    apiKeyIds: keys.map((key) => ({ value: key.keyId, label: key.description ? `${key.description} (${key.keyId})` : key.keyId })),
    channelGroups: CHANNEL_GROUPS.map((group) => ({ value: group, label: group })),
    ownerIds: members.map((member) => ({ value: member.userId, label: member.name || member.email })),
  };
}
