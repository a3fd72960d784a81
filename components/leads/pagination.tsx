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
  return (
    <nav aria-label="Pagination" className="mt-4 flex justify-end gap-2">
      <PageLink href={previous} label={oldestFirst ? "← Older" : "← Newer"} />
      <PageLink href={next} label={oldestFirst ? "Newer →" : "Older →"} />
    </nav>
  );
}

/** A link to a page, or where there is none, its label shown disabled. */
function PageLink({ href, label }: { href: string | null; label: string }) {
  return href ? (
    <Link href={href} className={buttonClass("secondary", "sm")}>
      {label}
    </Link>
  ) : (
    <span aria-disabled="true" className={`${buttonClass("secondary", "sm")} pointer-events-none opacity-50`}>
      {label}
    </span>
  );
}
