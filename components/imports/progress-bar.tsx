/** Rows read of the file's rows, as a bar with its numbers for screen readers. */
export function ProgressBar({ done, total }: { done: number; total: number }) {
  const percent = total ? Math.floor((done / total) * 100) : 0;
  return (
    <div
      role="progressbar"
      aria-label="Rows imported"
      aria-valuemin={0}
      aria-valuemax={total}
      aria-valuenow={done}
      aria-valuetext={`${done.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} rows`}
      className="h-3 w-full overflow-hidden rounded-full bg-slate-200"
    >
      <div className="h-full rounded-full bg-indigo-600 transition-[width]" style={{ width: `${percent}%` }} />
    </div>
  );
}
