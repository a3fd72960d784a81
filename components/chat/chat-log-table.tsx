import type { ChatDeliveryRow } from "@/lib/chat/chat-delivery-store";
import { Badge } from "@/components/ui/badge";
import { DateCell } from "@/components/ui/date-time";
import { TableHead } from "@/components/ui/table-head";

const td = "px-4 py-2 text-sm text-slate-700";

/** A destination's newest deliveries as text (never HTML): when, event, status, the platform's answer. Never the URL. */
export function ChatLogTable({ name, rows }: { name: string; rows: ChatDeliveryRow[] }) {
  if (rows.length === 0) return <p className="text-sm text-slate-600">Nothing has been posted here yet.</p>;
  return (
    <div role="region" aria-label={`Delivery log of ${name}`} tabIndex={0} className="overflow-x-auto rounded-md ring-1 ring-slate-200">
      <table className="min-w-full divide-y divide-slate-200">
        <caption className="sr-only">Messages posted, newest first</caption>
        <TableHead columns={["When", "Event", "Status", "Answer"]} />
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.id}>
              <DateCell value={row.startedAt} className={td} />
              <td className={td}>
                <code className="font-mono text-xs text-slate-900">{row.event}</code>
                <div className="text-xs text-slate-600">attempt {row.attempt}</div>
              </td>
              <td className={td}>
                <Badge tone={row.ok ? "green" : "red"}>{row.statusCode ?? "No answer"}</Badge>
              </td>
              <td className={`${td} max-w-xs break-words`}>{row.answer ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
