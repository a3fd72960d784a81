"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { releaseSelectedFromSpamAction } from "@/app/t/[slug]/leads/spam/actions";
import type { QuarantinedItem } from "@/lib/spam/quarantine-store";
import { formatPhone } from "@/lib/leads/format-phone";
import { CHANNEL_LABEL } from "@/components/leads/submission-list";
import { DataTable } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { buttonClass, cardClass } from "@/components/ui/styles";
import { useActionRunner } from "@/components/ui/use-action-runner";
import { ReleaseButton } from "./release-button";
import { REASON_WORDS } from "./reason-words";

// Leads → Spam's list (docs/spam.md "The quarantine"): each quarantined submission with who
// it names, what received it and why it was set aside, in plain words; owners and admins
// select rows and release them ("Not spam"). Every value is text.

const CELL = "px-4 py-3 align-top";
const checkbox =
  "h-4 w-4 rounded border-slate-400 text-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600";

const channelOf = (item: QuarantinedItem) =>
  item.connectionId ? CHANNEL_LABEL.connection : item.formId ? CHANNEL_LABEL.form : CHANNEL_LABEL.api;

/** "Link, address or markup in a name (name)": a reason and the field it was found in. */
const reasonLine = (reason: QuarantinedItem["reasons"][number]) =>
  `${REASON_WORDS[reason.code] ?? reason.code}${reason.field && reason.code !== "reported" ? ` (${reason.field})` : ""}`;

const submissions = (n: number) => (n === 1 ? "1 submission" : `${n.toLocaleString("en-US")} submissions`);

/** What a bulk release says: how many went into the list, and how many had left the quarantine already. */
const releasedText = (released: number, gone: number) =>
  `${submissions(released)} released into the lead list.${gone ? ` ${submissions(gone)} no longer in the quarantine (released or erased meanwhile).` : ""}`;

/** `canRelease`: the viewer is an owner or admin (the checkboxes and "Not spam" buttons). */
export function QuarantineTable({
  slug,
  items,
  canRelease,
  emptyText,
}: {
  slug: string;
  items: QuarantinedItem[];
  canRelease: boolean;
  emptyText: string;
}) {
  const router = useRouter();
  const [selected, setSelectedIds] = useState<ReadonlySet<string>>(new Set());
  // The last bulk release's outcome, announced until the selection changes again.
  const [outcome, setOutcome] = useState<string | null>(null);
  const { pending, error, run } = useActionRunner();
  const setSelected = (next: ReadonlySet<string>) => {
    setOutcome(null);
    setSelectedIds(next);
  };
  const visible = items.filter((item) => selected.has(item.id)).map((item) => item.id);
  const allSelected = items.length > 0 && visible.length === items.length;
  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    setSelected(next);
  };
  const release = () =>
    run(
      () => releaseSelectedFromSpamAction(slug, visible),
      (result) => {
        if (!result.ok) return;
        setSelectedIds(new Set());
        setOutcome(releasedText(result.released, result.gone));
        router.refresh();
      },
    );

  return (
    <>
      {canRelease ? (
        <div role="group" aria-label="Bulk actions" className="mb-3 flex flex-wrap items-center gap-3 text-sm text-slate-700">
          <span role="status">
            {visible.length ? `${submissions(visible.length)} selected` : (outcome ?? "Select submissions to release them.")}
          </span>
          {visible.length ? (
            <button type="button" disabled={pending} className={buttonClass("secondary", "sm")} onClick={release}>
              {pending ? "Releasing…" : `Not spam (${visible.length.toLocaleString("en-US")})`}
            </button>
          ) : null}
          {error ? (
            <span role="alert" className="text-red-700">
              {error}
            </span>
          ) : null}
        </div>
      ) : null}
      {items.length ? (
        <DataTable
          caption="Submissions in the spam quarantine, newest first"
          columns={[
            canRelease ? (
              <input
                key="all"
                type="checkbox"
                aria-label="Select all submissions on this page"
                className={checkbox}
                checked={allSelected}
                onChange={(event) => setSelected(event.target.checked ? new Set(items.map((item) => item.id)) : new Set())}
              />
            ) : null,
            "Received",
            "Who",
            { label: "Through", className: "hidden sm:table-cell" },
            "Why",
            canRelease ? "Action" : null,
          ]}
          className="text-sm"
        >
          {items.map((item) => (
            <tr key={item.id}>
              {canRelease ? (
                <td className={`${CELL} w-10`}>
                  <input
                    type="checkbox"
                    aria-label={`Select ${item.id}`}
                    className={checkbox}
                    checked={selected.has(item.id)}
                    onChange={(event) => toggle(item.id, event.target.checked)}
                  />
                </td>
              ) : null}
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
                {item.reportedAt ? (
                  <div className="mt-1 text-xs text-slate-600">
                    By {item.reportedBy ? item.reportedBy.name || item.reportedBy.email : "a former member"}
                  </div>
                ) : (
                  <div className="mt-1 text-xs text-slate-600">Score {item.score}</div>
                )}
              </td>
              {canRelease ? (
                <td className={CELL}>
                  <ReleaseButton slug={slug} id={item.id} />
                </td>
              ) : null}
            </tr>
          ))}
        </DataTable>
      ) : (
        <p className={`${cardClass} px-5 py-8 text-center text-sm text-slate-600`}>{emptyText}</p>
      )}
    </>
  );
}
