import type { Metadata } from "next";
import { requireTeamPage, MANAGERS } from "@/lib/auth/require-team-role";
import { listDestinations } from "@/lib/chat/chat-destination-store";
import { listChatDeliveries } from "@/lib/chat/chat-delivery-store";
import { PLATFORM_LABELS } from "@/lib/chat/chat-platforms";
import { describeNewLeadFilter } from "@/lib/chat/new-lead-filter";
import { newLeadFilterChoices } from "@/lib/chat/new-lead-filter-choices";
import { AddChatDialog } from "@/components/chat/add-chat-dialog";
import { ChatControls } from "@/components/chat/chat-controls";
import { ChatLogTable } from "@/components/chat/chat-log-table";
import { Badge } from "@/components/ui/badge";
import { cardClass } from "@/components/ui/styles";

export const metadata: Metadata = { title: "Notifications · Lead Intake" };

const LOG_ROWS = 10;

/** The list's line on which new leads (and repeats) a destination posts. */
const conditionsSummary = (conditions: string[]) =>
  conditions.length ? `Only new leads matching: ${conditions.join("; ")}` : "All new leads";

/** Settings → Notifications → Chat (docs/notifications.md): owners and admins only. */
export default async function NotificationsPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { team } = await requireTeamPage(slug, `/t/${slug}/settings/notifications`, MANAGERS);
  const [destinations, choices] = await Promise.all([listDestinations(team.id), newLeadFilterChoices(team.id)]);
  const logs = await Promise.all(
    destinations.map((destination) => listChatDeliveries({ destinationId: destination.id, teamId: team.id, take: LOG_ROWS })),
  );

  return (
    <section aria-labelledby="chat-heading" className="space-y-4">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 id="chat-heading" className="text-lg font-semibold text-slate-900">
            Chat
          </h2>
          <p className="mt-1 max-w-2xl text-sm text-slate-600">
            Post new leads, assignments and repeat submissions to your team&apos;s chat: Slack, Microsoft Teams, Discord, Google Chat, or a
            Slack-compatible server. Contact details are left out unless you tick them.
          </p>
        </div>
        <AddChatDialog slug={team.slug} choices={choices} />
      </div>
      {destinations.length === 0 ? (
        <p className={`${cardClass} px-5 py-8 text-center text-sm text-slate-600`}>No chat destinations yet.</p>
      ) : (
        <ul className="space-y-4" aria-label="Chat destinations">
          {destinations.map((destination, i) => (
            <li key={destination.id} className={`${cardClass} space-y-3 px-5 py-4`}>
              <div className="flex flex-wrap items-center justify-between gap-3">
                <div className="min-w-0">
                  <h3 className="font-medium [overflow-wrap:anywhere] text-slate-900">{destination.name}</h3>
                  <p className="mt-1 text-sm [overflow-wrap:anywhere] text-slate-600">
                    {PLATFORM_LABELS[destination.platform]} · <span className="font-mono">{destination.maskedUrl}</span>
                  </p>
                  <p className="mt-1 text-sm text-slate-600">
                    Posts:{" "}
                    {[
                      destination.postNewLeads ? "new leads" : null,
                      destination.postAssignments ? "assignments" : null,
                      destination.postReminders ? "reminders" : null,
                      destination.postRepeats ? "repeat submissions" : null,
                    ]
                      .filter(Boolean)
                      .join(", ") || "nothing"}
                    {destination.includeFields.length ? ` · with ${destination.includeFields.join(", ")}` : ""}
                  </p>
                  {destination.postNewLeads || destination.postRepeats ? (
                    <p className="mt-1 text-sm [overflow-wrap:anywhere] text-slate-600">
                      {conditionsSummary(describeNewLeadFilter(destination.newLeadFilter, choices))}
                    </p>
                  ) : null}
                </div>
                {destination.enabled ? (
                  destination.failingSince ? (
                    <Badge tone="amber">Enabled, failing</Badge>
                  ) : (
                    <Badge tone="green">Enabled</Badge>
                  )
                ) : destination.disabledReason === "gone" ? (
                  <Badge tone="red">Disabled: the chat deleted its webhook</Badge>
                ) : destination.disabledReason === "failing" ? (
                  <Badge tone="red">Disabled: kept failing</Badge>
                ) : (
                  <Badge>Disabled</Badge>
                )}
              </div>
              <ChatControls
                slug={team.slug}
                id={destination.id}
                name={destination.name}
                enabled={destination.enabled}
                choices={choices}
                fields={{
                  name: destination.name,
                  postNewLeads: destination.postNewLeads,
                  postAssignments: destination.postAssignments,
                  postReminders: destination.postReminders,
                  postRepeats: destination.postRepeats,
                  newLeadFilter: destination.newLeadFilter,
                  includeFields: destination.includeFields,
                }}
              />
              <ChatLogTable name={destination.name} rows={logs[i]!} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
