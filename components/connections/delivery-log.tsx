import Link from "next/link";
import type { DeliveryView } from "@/lib/connections/connection-delivery-store";
import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { DateCell } from "@/components/ui/date-time";
import { cardClass, linkClass } from "@/components/ui/styles";
import { ReplayButton } from "./replay-button";

const OUTCOME = {
  created: { tone: "green", text: "Lead created" },
  needs_mapping: { tone: "amber", text: "Needs mapping" },
  refused: { tone: "red", text: "Refused" },
} as const;

const CELL = "px-4 py-3 align-top";

/** The connection's latest deliveries: when, what became of each, its lead or its reason; a replay for those kept. */
export function DeliveryLog({ slug, rows, canManage }: { slug: string; rows: DeliveryView[]; canManage: boolean }) {
  if (!rows.length) return <p className={`${cardClass} px-5 py-8 text-center text-sm text-slate-600`}>No deliveries yet.</p>;
  return (
    <DataTable
      caption="The connection's latest deliveries"
      columns={["Last attempt", "Outcome", "Lead or reason", "Attempts", canManage ? "Action" : null]}
      className="text-sm"
    >
      {rows.map((row) => {
        const outcome = OUTCOME[row.outcome];
        return (
          <tr key={row.id}>
            <DateCell value={row.lastAttemptAt} className={`${CELL} whitespace-nowrap text-slate-700`} />
            <td className={CELL}>
              <Badge tone={outcome.tone}>{outcome.text}</Badge>
              <span className="ml-2 text-xs text-slate-500">{row.status}</span>
            </td>
            <td className={`${CELL} [overflow-wrap:anywhere] text-slate-800`}>
              {row.leadId ? (
                <Link href={`/t/${slug}/leads/${row.leadId}`} className={linkClass}>
                  {row.leadId}
                </Link>
              ) : (
                row.error
              )}
            </td>
            <td className={`${CELL} text-slate-700`}>{row.attempts}</td>
            {canManage ? (
              <td className={CELL}>
                {row.outcome === "needs_mapping" && row.hasPayload ? (
                  <ReplayButton slug={slug} deliveryId={row.id} label={`Replay the delivery of ${row.lastAttemptAt.toISOString()}`} />
                ) : null}
              </td>
            ) : null}
          </tr>
        );
      })}
    </DataTable>
  );
}
