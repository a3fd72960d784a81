import Link from "next/link";
import { buttonClass } from "@/components/ui/styles";

/** Previous and next page of the list; in oldest-first order the next page holds newer leads. */
export function Pagination({
  previous,
  next,
  oldestFirst = false,
}: {
  previous: string | null;
  next: string | null;
  oldestFirst?: boolean;
}) {
  if (!previous && !next) return null;
  const disabled = `${buttonClass("secondary", "sm")} pointer-events-none opacity-50`;
  const previousLabel = oldestFirst ? "← Older" : "← Newer";
  const nextLabel = oldestFirst ? "Newer →" : "Older →";
  return (
    <nav aria-label="Pagination" className="mt-4 flex justify-end gap-2">
      {previous ? (
        <Link href={previous} className={buttonClass("secondary", "sm")}>
          {previousLabel}
        </Link>
      ) : (
        <span aria-disabled="true" className={disabled}>
          {previousLabel}
        </span>
      )}
      {next ? (
        <Link href={next} className={buttonClass("secondary", "sm")}>
          {nextLabel}
        </Link>
      ) : (
        <span aria-disabled="true" className={disabled}>
          {nextLabel}
        </span>
      )}
    </nav>
  );
}
