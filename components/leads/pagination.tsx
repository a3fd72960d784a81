import Link from "next/link";
import { buttonClass } from "@/components/ui/styles";

export function Pagination({ newer, older }: { newer: string | null; older: string | null }) {
  if (!newer && !older) return null;
  const disabled = `${buttonClass("secondary", "sm")} pointer-events-none opacity-50`;
  return (
    <nav aria-label="Pagination" className="mt-4 flex justify-end gap-2">
      {newer ? (
        <Link href={newer} className={buttonClass("secondary", "sm")}>
          ← Newer
        </Link>
      ) : (
        <span aria-disabled="true" className={disabled}>
          ← Newer
        </span>
      )}
      {older ? (
        <Link href={older} className={buttonClass("secondary", "sm")}>
          Older →
        </Link>
      ) : (
        <span aria-disabled="true" className={disabled}>
          Older →
        </span>
      )}
    </nav>
  );
}
