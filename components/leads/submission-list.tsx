import type { SubmissionChannel } from "@/lib/leads/lead-write";
import { DateTime } from "@/components/ui/date-time";
import { cardClass } from "@/components/ui/styles";

export const CHANNEL_LABEL = { api: "API key", form: "Web form", connection: "Form builder connection", import: "CSV import" } as const;

/** One submission as the lead's page lists it: when, by which channel, and what received it (its name and id). */
export type SubmissionItem = { id: string; channel: SubmissionChannel; label: string | null; createdAt: Date };

/** A lead's submissions, newest first, and how many it has (docs/leads.md "Submissions"). */
export function SubmissionList({ count, submissions }: { count: number; submissions: SubmissionItem[] }) {
  return (
    <section aria-labelledby="submissions-heading" className={`${cardClass} p-5`}>
      <h2 id="submissions-heading" className="text-sm font-semibold text-slate-900">
        Submissions
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        {count === 1 ? "1 submission" : `${count.toLocaleString("en-US")} submissions`}
        {count > submissions.length ? `, the newest ${submissions.length} listed` : ""}
      </p>
      {submissions.length ? (
        <ol className="mt-3 divide-y divide-slate-100">
          {submissions.map((submission) => (
            <li key={submission.id} className="flex flex-wrap items-center justify-between gap-2 py-2.5 text-sm">
              <span className="flex min-w-0 flex-wrap items-center gap-2 [overflow-wrap:anywhere]">
                <span className="font-medium text-slate-900">{CHANNEL_LABEL[submission.channel]}</span>
                {/* Read as "API key 0f3a… (Website)", not run together. */}
                {submission.label ? (
                  <>
                    {" "}
                    <span className="text-slate-600">{submission.label}</span>
                  </>
                ) : null}
              </span>
              <span className="text-xs text-slate-500">
                <DateTime value={submission.createdAt} />
              </span>
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
