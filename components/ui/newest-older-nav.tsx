import Link from "next/link";
import { buttonClass } from "@/components/ui/styles";

/** "← Newest" and "Older →" (or `olderText`) for a log paged from the newest row by a cursor. */
export function NewestOlderNav({
  label,
  newestHref,
  olderHref,
  olderText = "Older →",
}: {
  label: string;
  newestHref: string | null;
  olderHref: string | null;
  olderText?: string;
}) {
  if (!newestHref && !olderHref) return null;
  return (
    <nav aria-label={label} className="mt-4 flex justify-end gap-2">
      {newestHref ? (
        <Link href={newestHref} className={buttonClass("secondary", "sm")}>
          ← Newest
        </Link>
      ) : null}
      {olderHref ? (
        <Link href={olderHref} className={buttonClass("secondary", "sm")}>
          {olderText}
        </Link>
      ) : null}
    </nav>
  );
}
