import type { QuarantinedItem } from "@/lib/spam/quarantine-store";
import { formatPhone } from "@/lib/leads/format-phone";
import { CHANNEL_LABEL } from "@/components/leads/submission-list";
import { DataTable } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { cardClass } from "@/components/ui/styles";
import { ReleaseButton } from "./release-button";

// Leads → Spam's list (docs/spam.md "The quarantine"): each quarantined submission with who
// it names, what received it and why it was set aside, in plain words. Every value is text.

/** Each reason's words (lib/spam/spam-reason.ts SPAM_REASON_CODES). */
export const REASON_WORDS: Record<string, string> = {
  link_in_name: "Link, address or markup in a name",
  random_name: "Name reads as random characters",
  disposable_email: "Disposable email address",
  free_email: "Free-mail address (business addresses only)",
  message_links: "Links in a message",
  blocked_word: "A blocked word",
  blocked_email: "A blocked address or domain",
  blocked_ip: "A blocked IP range",
  burst: "Many submissions from one sender",
  akismet: "Akismet called it spam",
};

const CELL = "px-4 py-3 align-top";

const channelOf = (item: QuarantinedItem) =>
  item.connectionId ? CHANNEL_LABEL.connection : item.formId ? CHANNEL_LABEL.form : CHANNEL_LABEL.api;

/** "Link, address or markup in a name (name)": a reason and the field it was found in. */
const reasonLine = (reason: QuarantinedItem["reasons"][number]) =>
  `${REASON_WORDS[reason.code] ?? reason.code}${reason.field ? ` (${reason.field})` : ""}`;

/** `canRelease`: the viewer is an owner or admin (the "Not spam" buttons). */
export function QuarantineTable({ slug, items, canRelease }: { slug: string; items: QuarantinedItem[]; canRelease: boolean }) {
  if (!items.length) return <p className={`${cardClass} px-5 py-8 text-center text-sm text-slate-600`}>The quarantine is empty.</p>;
  return (
    <DataTable
      caption="Submissions in the spam quarantine, newest first"
      columns={["Received", "Who", { label: "Through", className: "hidden sm:table-cell" }, "Why", canRelease ? "Action" : null]}
      className="text-sm"
    >
      {items.map((item) => (
        <tr key={item.id}>
          <td className={`${CELL} text-slate-700`}>
            <DateTime value={item.createdAt} />
            <div className="font-mono text-xs text-slate-600">{item.id}</div>
          </td>
          <td className={`${CELL} [overflow-wrap:anywhere]`}>
            <div className="text-slate-900">{item.name || "—"}</div>
            <div className="text-slate-600">{item.emailKey ?? formatPhone(item.phone ?? item.mobileNo) ?? ""}</div>
            {/* A phone has no room for its own column. */}
            <div className="text-xs text-slate-600 sm:hidden">Through: {channelOf(item)}</div>
          </td>
          <td className={`${CELL} hidden text-slate-700 sm:table-cell`}>{channelOf(item)}</td>
          <td className={`${CELL} [overflow-wrap:anywhere] text-slate-700`}>
            <ul className="space-y-0.5">
              {item.reasons.map((reason, i) => (
                <li key={i}>{reasonLine(reason)}</li>
              ))}
            </ul>
            <div className="mt-1 text-xs text-slate-600">Score {item.score}</div>
          </td>
          {canRelease ? (
            <td className={CELL}>
              <ReleaseButton slug={slug} id={item.id} />
            </td>
          ) : null}
        </tr>
      ))}
    </DataTable>
  );
}
