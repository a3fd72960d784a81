import {
  durationWords,
  SAMPLE_LIMIT,
  SPEED_WINDOWS,
  type ContactFigures,
  type SpeedToLead,
  type SpeedWindow,
} from "@/lib/leads/speed-to-lead";
import type { Member } from "@/lib/teams/team-store";
import { TableHead } from "@/components/ui/table-head";
import { cardClass, focusRingClass } from "@/components/ui/styles";

const WINDOW_LABELS: Record<SpeedWindow, string> = { "7d": "7 days", "30d": "30 days" };

const leads = (n: number) => (n === 1 ? "1 lead" : `${n.toLocaleString("en-US")} leads`);

function windowText(window: SpeedWindow, figures: ContactFigures & { sampled?: boolean }): string {
  const label = WINDOW_LABELS[window];
  if (figures.medianMs === null || figures.p90Ms === null) return `${label}: no lead contacted`;
  const sample = figures.sampled ? `; based on the newest ${SAMPLE_LIMIT.toLocaleString("en-US")} leads` : "";
  return `${label}: median ${durationWords(figures.medianMs)}, 90th percentile ${durationWords(figures.p90Ms)} (${leads(figures.contacted)}${sample})`;
}

/**
 * The team's time to first contact on Leads (docs/routing.md "Speed to lead"): the median and
 * 90th percentile over the last 7 and 30 days, the New leads right now, and "By owner" (a
 * disclosure with a small table). Every member of the team sees it.
 */
export function SpeedToLeadCard({
  figures,
  members,
}: {
  figures: SpeedToLead;
  members: readonly Pick<Member, "userId" | "name" | "email">[];
}) {
  const contacted = SPEED_WINDOWS.some((w) => figures.windows[w.name].contacted > 0);
  const items = contacted
    ? SPEED_WINDOWS.map((w) => windowText(w.name, figures.windows[w.name]))
    : ["No lead contacted in the last 30 days."];
  items.push(`New right now: ${figures.newNow.count.toLocaleString("en-US")}${figures.newNow.capped ? "+" : ""}`);
  const ownerName = (ownerId: string | null) => {
    if (ownerId === null) return "Unassigned";
    const member = members.find((m) => m.userId === ownerId);
    return member ? member.name || member.email : "A former member";
  };
  const columns = SPEED_WINDOWS.flatMap((w) => [
    `${WINDOW_LABELS[w.name]}: median`,
    `${WINDOW_LABELS[w.name]}: 90th percentile`,
    `${WINDOW_LABELS[w.name]}: leads`,
  ]);
  return (
    <section aria-labelledby="speed-to-lead-heading" className={`${cardClass} px-4 py-3 text-sm`}>
      <h2 id="speed-to-lead-heading" className="font-semibold text-slate-900">
        Time to first contact
      </h2>
      <ul className="mt-1 flex flex-wrap gap-x-2 gap-y-1 text-slate-700">
        {items.map((item, i) => (
          <li key={item}>
            {i > 0 ? (
              <span aria-hidden="true" className="mr-2 text-slate-500">
                ·
              </span>
            ) : null}
            {item}
          </li>
        ))}
      </ul>
      {figures.owners.length ? (
        <details className="mt-2">
          <summary className={`cursor-pointer rounded-sm font-medium text-slate-700 ${focusRingClass}`}>By owner</summary>
          <div
            role="region"
            aria-label="Time to first contact by owner"
            tabIndex={0}
            className={`mt-2 overflow-x-auto rounded-md border border-slate-200 ${focusRingClass}`}
          >
            <table className="min-w-full divide-y divide-slate-200">
              <caption className="sr-only">Time to first contact by owner, leads created in the last 7 and 30 days</caption>
              <TableHead columns={["Owner", ...columns]} />
              <tbody className="divide-y divide-slate-100">
                {figures.owners.map((owner) => (
                  <tr key={owner.ownerId ?? "unassigned"}>
                    <th scope="row" className="px-4 py-2 text-left font-medium whitespace-nowrap text-slate-900">
                      {ownerName(owner.ownerId)}
                    </th>
                    {SPEED_WINDOWS.flatMap((w) => {
                      const shown = owner.windows[w.name];
                      return [
                        shown.medianMs === null ? "—" : durationWords(shown.medianMs),
                        shown.p90Ms === null ? "—" : durationWords(shown.p90Ms),
                        shown.contacted.toLocaleString("en-US"),
                      ].map((text, i) => (
                        <td key={`${w.name}-${i}`} className="px-4 py-2 whitespace-nowrap text-slate-700">
                          {text}
                        </td>
                      ));
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      ) : null}
    </section>
  );
}
