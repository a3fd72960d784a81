import Link from "next/link";
import { linkClass } from "@/components/ui/styles";

/** A page's way back to the page above it, such as "← Leads": its breadcrumb. */
export function Breadcrumb({ href, children }: { href: string; children: React.ReactNode }) {
  return (
    <nav aria-label="Breadcrumb" className="mb-4 text-sm">
      <Link href={href} className={linkClass}>
        {children}
      </Link>
    </nav>
  );
}
