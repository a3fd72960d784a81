import type { DeliveryLogRow } from "@/lib/webhooks/delivery-attempt-store";
import { Badge } from "@/components/ui/badge";
import { DateCell } from "@/components/ui/date-time";
import { cardClass } from "@/components/ui/styles";
import { ResendButton } from "./endpoint-controls";
import { TableHead } from "@/components/ui/table-head";

const td = "px-4 py-3 text-sm text-slate-700";

const RESENDABLE = new Set(["failed", "cancelled"]);

/** An endpoint's recent attempts as text (never HTML), newest first; managers may resend a failed delivery. */
export function DeliveryLogTable({
  slug,
  endpointId,
  rows,
  canManage,
}: {
  slug: string;
  endpointId: string;
  rows: DeliveryLogRow[];
  canManage: boolean;
}) {
  if (rows.length === 0) {
    return <p className={`${cardClass} px-5 py-8 text-center text-sm text-slate-600`}>Nothing has been sent to this endpoint yet.</p>;
  }
  // A delivery's latest attempt carries its Resend button.
  const latest = new Set<number>();
  const seen = new Set<string>();
  for (const row of rows) {
    if (seen.has(row.jobId)) continue;
    seen.add(row.jobId);
    latest.add(row.id);
  }
  return (
    <div role="region" aria-label="Delivery log" tabIndex={0} className={`${cardClass} overflow-x-auto`}>
      <table className="min-w-full divide-y divide-slate-200">
        <caption className="sr-only">Delivery attempts, newest first</caption>
        <TableHead columns={["When", "Event", "Outcome", "Duration", "Answer"]} />
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.id} data-ok={row.ok}>
              <DateCell value={row.startedAt} className={td} />
              <td className={td}>
                <code className="font-mono text-xs text-slate-900">{row.eventType}</code>
                <div className="font-mono text-xs text-slate-600">
                  {row.eventId} · attempt {row.attempt}
                </div>
              </td>
              <td className={td}>
                <div className="flex flex-wrap items-center gap-2">
                  <Badge tone={row.ok ? "green" : "red"}>{row.statusCode ?? "No answer"}</Badge>
                  {row.error ? <span className="break-words text-slate-900">{row.error}</span> : null}
                  {canManage && latest.has(row.id) && RESENDABLE.has(row.jobState) ? (
                    <ResendButton slug={slug} endpointId={endpointId} jobId={row.jobId} />
                  ) : null}
                </div>
              </td>
              <td className={`${td} whitespace-nowrap`}>{row.durationMs} ms</td>
              <td className={`${td} max-w-xs`}>
                <span className="line-clamp-3 font-mono text-xs break-all">{row.responseExcerpt ?? "—"}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
