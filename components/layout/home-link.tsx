import Link from "next/link";
import { KeyIcon } from "@/components/ui/icons";

/**
 * The app's mark and name, linking home. In the team header (`compact`) it keeps its width
 * and shows only the mark on a phone; the name stays its accessible name there.
 */
export function HomeLink({ compact = false }: { compact?: boolean }) {
  return (
    <Link
      href="/"
      className={`flex ${compact ? "shrink-0 " : ""}items-center gap-2 rounded-md focus-visible:outline-2 focus-visible:outline-indigo-600`}
    >
      <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-indigo-600 text-white">
        <KeyIcon className="h-4 w-4" />
      </span>
      <span className={compact ? "sr-only font-semibold tracking-tight sm:not-sr-only" : "font-semibold tracking-tight"}>Lead Intake</span>
    </Link>
  );
}
