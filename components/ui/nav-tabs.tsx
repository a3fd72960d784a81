"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/** A tab: its link, and the paths (besides its own) under which it is the current one. */
export type NavTab = { href: string; label: string; also?: string[] };

/**
 * A nav of tabs as a list of links; the tab whose href (or one of `also`) starts the
 * current path is marked aria-current="page" and styled with `current`, the others `other`.
 */
export function NavTabs({
  label,
  tabs,
  className,
  listClassName,
  linkClassName,
}: {
  label: string;
  tabs: NavTab[];
  className: string;
  listClassName: string;
  linkClassName: { base: string; current: string; other: string };
}) {
  const pathname = usePathname();
  return (
    <nav aria-label={label} className={className}>
      <ul className={listClassName}>
        {tabs.map((tab) => {
          const active = [tab.href, ...(tab.also ?? [])].some((href) => pathname.startsWith(href));
          return (
            <li key={tab.href}>
              <Link
                href={tab.href}
                aria-current={active ? "page" : undefined}
                className={`${linkClassName.base} ${active ? linkClassName.current : linkClassName.other}`}
              >
                {tab.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
