"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

export function MainNav({ slug }: { slug: string }) {
  const pathname = usePathname();
  const items = [
    { href: `/t/${slug}/leads`, label: "Leads" },
    { href: `/t/${slug}/settings`, label: "Team Settings" },
  ];
  return (
    <nav aria-label="Main" className="order-last -ml-3 flex w-full items-center gap-1 sm:order-none sm:ml-2 sm:w-auto">
      {items.map((item) => {
        const active = pathname.startsWith(item.href);
        return (
          <Link
            key={item.href}
            href={item.href}
            aria-current={active ? "page" : undefined}
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
