/** The header cells' classes of the app's data tables. */
export const TH_CLASS = "px-4 py-3 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase";

/** A header cell: its label, or its label with classes of its own (hidden on a phone, say). */
export type Column = React.ReactNode | { label: React.ReactNode; className: string };

const withClass = (column: Column): column is { label: React.ReactNode; className: string } =>
  typeof column === "object" && column !== null && "label" in column && "className" in column;

/**
 * The header row of a data table: one `<th scope="col">` per column, in order; a `null` or
 * `false` column (one the viewer may not use) is left out.
 */
export function TableHead({ columns, thClassName = TH_CLASS }: { columns: (Column | null | false)[]; thClassName?: string }) {
  return (
    <thead className="bg-slate-50">
      <tr>
        {columns
          .filter((column) => column !== null && column !== false)
          .map((column, i) => (
            <th key={i} scope="col" className={withClass(column) ? `${thClassName} ${column.className}` : thClassName}>
              {withClass(column) ? column.label : column}
            </th>
          ))}
      </tr>
    </thead>
  );
}
