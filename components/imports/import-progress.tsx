"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState, useTransition } from "react";
import { cancelImportAction, importStatusAction } from "@/app/t/[slug]/leads/import/actions";
import type { ImportStatusView } from "@/lib/imports/import-status-view";
import { FormError } from "@/components/ui/form-error";
import { buttonClass, cardClass } from "@/components/ui/styles";
import { ProgressBar } from "./progress-bar";

const ACTIVE = ["queued", "running", "cancelling"];
const number = (n: number) => n.toLocaleString("en-US");

/** Rows per second since the start, and the seconds left at that rate (null until known). */
function pace(view: ImportStatusView, now: number): { rate: number | null; left: number | null } {
  if (!view.startedAt || view.cursor === 0) return { rate: null, left: null };
  const seconds = (now - new Date(view.startedAt).getTime()) / 1000;
  if (seconds <= 0) return { rate: null, left: null };
  const rate = view.cursor / seconds;
  return { rate, left: Math.max(0, Math.ceil((view.totalRows - view.cursor) / rate)) };
}

/**
 * Step 5: the running import's progress, read again every second from the server (so it
 * survives a reload and every admin sees the same), with Cancel. When the import ends the
 * page reloads into its result.
 */
export function ImportProgress({
  slug,
  id,
  initial,
  assignment,
}: {
  slug: string;
  id: string;
  initial: ImportStatusView;
  /** How its new leads are assigned ("Assigned by the rules", …). */
  assignment: string;
}) {
  const router = useRouter();
  const [view, setView] = useState(initial);
  const [now, setNow] = useState(() => Date.now());
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  useEffect(() => {
    let stopped = false;
    const timer = setInterval(async () => {
      const result = await importStatusAction(slug, id).catch(() => null);
      if (stopped || !result) return;
      if (!result.ok) {
        setError(result.error);
        return;
      }
      setView(result.view);
      setNow(Date.now());
      if (!ACTIVE.includes(result.view.status)) {
        stopped = true;
        clearInterval(timer);
        router.refresh();
      }
    }, 1000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [slug, id, router]);

  const { rate, left } = pace(view, now);
  const percent = view.totalRows ? Math.floor((view.cursor / view.totalRows) * 100) : 0;
  const state =
    view.status === "queued" ? "Waiting to start…" : view.status === "cancelling" ? "Stopping after the current batch…" : "Importing…";

  return (
    <section aria-labelledby="import-progress-heading" className={`${cardClass} space-y-4 p-5`}>
      <h2 id="import-progress-heading" className="text-base font-semibold text-slate-900">
        {state}
      </h2>
      <ProgressBar done={view.cursor} total={view.totalRows} />
      <p className="text-sm text-slate-700" aria-live="polite">
        {number(view.cursor)} of {number(view.totalRows)} rows ({percent} %)
        {rate !== null ? ` · ${number(Math.round(rate))} rows/s` : ""}
        {left !== null ? ` · about ${left} s left` : ""}
      </p>
      <p className="text-sm text-slate-600">
        So far: {number(view.createdCount)} created, {number(view.updatedCount)} updated, {number(view.skippedCount)} skipped as duplicates,{" "}
        {number(view.refusedCount)} refused. You can leave this page: the import goes on in the background.
      </p>
      <p className="text-sm text-slate-700">
        <span className="font-medium">Owners:</span> {assignment}
      </p>
      <FormError error={error} />
      {view.status !== "cancelling" ? (
        <button
          type="button"
          disabled={pending}
          className={buttonClass("secondary")}
          onClick={() =>
            startTransition(async () => {
              const result = await cancelImportAction(slug, id);
              if (!result.ok) setError(result.error);
              else setView((current) => ({ ...current, status: "cancelling" }));
            })
          }
        >
          Cancel import
        </button>
      ) : null}
    </section>
  );
}
