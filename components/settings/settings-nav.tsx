"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { apiIntegrationTabs } from "./api-integration-nav";

/**
 * The settings tabs; the Audit log tab only for owners and admins (its page checks that again).
 * "API Integration" stays current on each of its sub-tabs (api-integration-nav.tsx).
 */
export function SettingsNav({ slug, showAudit }: { slug: string; showAudit: boolean }) {
  const pathname = usePathname();
  const base = `/t/${slug}/settings`;
  const tabs: { href: string; label: string; also?: string[] }[] = [
    { href: `${base}/general`, label: "General" },
    { href: `${base}/members`, label: "Members" },
    { href: `${base}/sources`, label: "Lead Sources" },
    { href: `${base}/api-keys`, label: "API Integration", also: apiIntegrationTabs(slug).map((tab) => tab.href) },
    ...(showAudit ? [{ href: `${base}/audit`, label: "Audit log" }] : []),
  ];
  return (
    <nav aria-label="Settings" className="lg:w-56 lg:shrink-0">
      <ul className="flex gap-1 overflow-x-auto lg:flex-col">
        {tabs.map((tab) => {
          const active = [tab.href, ...(tab.also ?? [])].some((href) => pathname.startsWith(href));
          return (
            <li key={tab.href}>
              <Link
                href={tab.href}
                aria-current={active ? "page" : undefined}
                className={`block whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600 ${
                  active ? "bg-white text-indigo-700 shadow-sm ring-1 ring-slate-200" : "text-slate-600 hover:bg-white hover:text-slate-900"
                }`}
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
