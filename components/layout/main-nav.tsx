"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/** The team's main sections: a row in the header, or a column in the phone's header menu. */
export function MainNav({ slug, variant = "bar", onNavigate }: { slug: string; variant?: "bar" | "menu"; onNavigate?: () => void }) {
  const pathname = usePathname();
  const items = [
    { href: `/t/${slug}/leads`, label: "Leads" },
    { href: `/t/${slug}/settings`, label: "Team Settings" },
  ];
  return (
    <nav aria-label="Main" className={variant === "bar" ? "ml-2 hidden items-center gap-1 sm:flex" : "flex flex-col gap-1"}>
      {items.map((item) => {
        const active = pathname.startsWith(item.href);
        return (
          <Link
            key={item.href}
            href={item.href}
            aria-current={active ? "page" : undefined}
            onClick={onNavigate}
            className={`rounded-md px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600 ${
              active ? "bg-slate-100 text-slate-900" : "text-slate-600 hover:bg-slate-50 hover:text-slate-900"
            }`}
          >
            {item.label}
          </Link>
        );
      })}
    </nav>
  );
}
