import Link from "next/link";
import type { DeliveryView } from "@/lib/connections/connection-delivery-store";
import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { cardClass, linkClass } from "@/components/ui/styles";
import { keptSize } from "./kept-size";
import { ReplayButton } from "./replay-button";

const OUTCOME = {
  created: { tone: "green", text: "Lead created" },
  needs_mapping: { tone: "amber", text: "Needs mapping" },
  refused: { tone: "red", text: "Refused" },
  held: { tone: "indigo", text: "Held until confirmed" },
} as const;

const CELL = "px-4 py-3 align-top";

/** What became of a delivery, and the HTTP status it was answered with. */
export function OutcomeBadge({ delivery }: { delivery: Pick<DeliveryView, "outcome" | "status"> }) {
  const outcome = OUTCOME[delivery.outcome];
  return (
    <>
      <Badge tone={outcome.tone}>{outcome.text}</Badge>
      <span className="ml-2 text-xs text-slate-500">{delivery.status}</span>
    </>
  );
}

/** A delivery's lead (a link), its place in the spam quarantine (`quarantined`), or, when it made none, its reason. */
export function LeadOrReason({
  slug,
  delivery,
  quarantined = false,
}: {
  slug: string;
  delivery: Pick<DeliveryView, "leadId" | "error">;
  quarantined?: boolean;
}) {
  if (!delivery.leadId) return delivery.error;
  if (quarantined)
    return (
      <Link href={`/t/${slug}/leads/spam`} className={linkClass}>
        {delivery.leadId} quarantined as spam
      </Link>
    );
  return (
    <Link href={`/t/${slug}/leads/${delivery.leadId}`} className={linkClass}>
      {delivery.leadId}
    </Link>
  );
}

/**
 * A page of the connection's log, newest first: when (a link to the delivery's own page),
 * what became of each, its lead or its reason and what it keeps, its attempts; a replay for
 * those kept. Summaries only: a body is read on its delivery's page.
 */
export function DeliveryLog({
  slug,
  connectionId,
  rows,
  quarantined,
  canManage,
  older,
}: {
  slug: string;
  connectionId: string;
  rows: DeliveryView[];
  /** The lead ids of these rows that are in the spam quarantine. */
  quarantined: ReadonlySet<string>;
  canManage: boolean;
  /** An older page (not the newest): its emptiness says so. */
  older: boolean;
}) {
  if (!rows.length)
    return (
      <p className={`${cardClass} px-5 py-8 text-center text-sm text-slate-600`}>{older ? "No older deliveries." : "No deliveries yet."}</p>
    );
  return (
    <DataTable
      caption="The connection's deliveries, newest first"
      columns={["Last attempt", "Outcome", "Lead or reason", "Attempts", canManage ? "Action" : null]}
      className="text-sm"
    >
      {rows.map((row) => (
        <tr key={row.id}>
          <td className={`${CELL} whitespace-nowrap`}>
            <Link href={`/t/${slug}/settings/connections/${connectionId}/deliveries/${row.id}`} className={linkClass}>
              <DateTime value={row.lastAttemptAt} />
            </Link>
          </td>
          <td className={CELL}>
            <OutcomeBadge delivery={row} />
          </td>
          <td className={`${CELL} [overflow-wrap:anywhere] text-slate-800`}>
            <LeadOrReason slug={slug} delivery={row} quarantined={row.leadId !== null && quarantined.has(row.leadId)} />
            {row.keptBytes !== null ? <div className="mt-1 text-xs text-slate-600">Kept: {keptSize(row.keptBytes)}</div> : null}
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
      ))}
    </DataTable>
  );
}
