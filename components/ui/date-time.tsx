const formatter = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});

/** A date rendered the same on server and client (UTC), with the exact instant in dateTime. */
export function DateTime({ value, fallback = "Never" }: { value: Date | null; fallback?: string }) {
  if (!value) return <span className="text-slate-500">{fallback}</span>;
  return (
    <time dateTime={value.toISOString()} title={value.toISOString()}>
      {formatter.format(value)} UTC
    </time>
  );
}

/** A table cell holding one date, kept on one line; `className` is the table's cell class. */
export function DateCell({ value, className }: { value: Date | null; className: string }) {
  return (
    <td className={`${className} whitespace-nowrap`}>
      <DateTime value={value} />
    </td>
  );
}
