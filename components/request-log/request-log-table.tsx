import Link from "next/link";
import type { RequestLogRow } from "@/lib/request-log/request-log-store";
import { Badge } from "@/components/ui/badge";
import { DateCell } from "@/components/ui/date-time";
import { NewestOlderNav } from "@/components/ui/newest-older-nav";
import { cardClass, linkClass } from "@/components/ui/styles";
import { TableHead } from "@/components/ui/table-head";

const td = "px-4 py-3 text-sm text-slate-700";

const ENCODING_LABEL: Record<string, string> = {
  json: "JSON",
  urlencoded: "Form (urlencoded)",
  multipart: "Form (multipart)",
  other: "Other",
  none: "None",
};

/** A request-log page's cursor, from its ?before= (a row id); none (the newest page) for anything else. */
export const requestLogCursor = (before: string | string[] | undefined): number | undefined =>
  typeof before === "string" && /^\d{1,15}$/.test(before) ? Number(before) : undefined;

/**
 * A page of a key's or form's request log: the table, then "← Newest" and "Older →". `base`
 * is the page's path, `cursor` its ?before= (none on the newest page), `log` its rows and the
 * next older page's cursor.
 */
export function RequestLog({
  base,
  cursor,
  log,
  ...table
}: {
  slug: string;
  base: string;
  cursor: number | undefined;
  log: { rows: RequestLogRow[]; olderCursor: number | null };
  of?: "key" | "form";
}) {
  return (
    <>
      <RequestLogTable {...table} rows={log.rows} />
      <NewestOlderNav
        label="Request log pages"
        newestHref={cursor ? base : null}
        olderHref={log.olderCursor ? `${base}?before=${log.olderCursor}` : null}
      />
    </>
  );
}

/** A key's requests as text (never HTML), newest first. */
function RequestLogTable({ slug, rows, of = "key" }: { slug: string; rows: RequestLogRow[]; of?: "key" | "form" }) {
  if (rows.length === 0) {
    return (
      <p className={`${cardClass} px-5 py-8 text-center text-sm text-slate-600`}>
        {of === "key" ? "This key has received no requests yet." : "This form has received no submissions yet."}
      </p>
    );
  }
  return (
    <div className={`${cardClass} overflow-x-auto`}>
      <table className="min-w-full divide-y divide-slate-200">
        <caption className="sr-only">{of === "key" ? "Requests of this key" : "Submissions of this form"}, newest first</caption>
        <TableHead columns={["When", "Outcome", "Client address", "Body"]} />
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.id} data-status={row.status}>
              <DateCell value={row.createdAt} className={td} />
              <td className={td}>
                <div className="flex flex-wrap items-center gap-2">
                  <Badge tone={row.status < 300 ? "green" : row.status === 429 ? "amber" : "red"}>{row.status}</Badge>
                  {row.leadId && row.spam ? (
                    // Not a lead: its page is Leads → Spam.
                    <Link href={`/t/${slug}/leads/spam`} className={`${linkClass} text-xs`}>
                      <span className="font-mono">{row.leadId}</span> quarantined: {row.spam.split(" ").join(", ")}
                    </Link>
                  ) : row.leadId ? (
                    <Link href={`/t/${slug}/leads/${row.leadId}`} className={`${linkClass} font-mono text-xs`}>
                      {row.leadId}
                    </Link>
                  ) : null}
                  {row.error ? <span className="break-words text-slate-900">{row.error}</span> : null}
                </div>
              </td>
              <td className={`${td} font-mono text-xs whitespace-nowrap`}>{row.ip ?? "—"}</td>
              <td className={`${td} whitespace-nowrap`}>{ENCODING_LABEL[row.encoding] ?? row.encoding}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
