import { cardClass } from "./styles";
import { TableHead, type Column } from "./table-head";

/**
 * A data table in a card that scrolls sideways when too wide: its caption (for screen readers
 * only), its header row (`columns`, as TableHead) and its rows (`children`). `className` adds
 * to the table's classes (text-sm, say).
 */
export function DataTable({
  caption,
  columns,
  className,
  children,
}: {
  caption: React.ReactNode;
  columns: (Column | null | false)[];
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <div className={`${cardClass} overflow-x-auto`}>
      <table className={className ? `min-w-full divide-y divide-slate-200 ${className}` : "min-w-full divide-y divide-slate-200"}>
        <caption className="sr-only">{caption}</caption>
        <TableHead columns={columns} />
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}
