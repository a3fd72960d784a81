"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/**
 * The sub-tabs of Team Settings → API Integration. Each page of the group renders this above
 * its own section; a new integration (web forms, webhooks) adds its entry here.
 */
export function apiIntegrationTabs(slug: string): { href: string; label: string }[] {
  const base = `/t/${slug}/settings`;
  return [
    { href: `${base}/api-keys`, label: "API Keys" },
    { href: `${base}/web-forms`, label: "Web Forms" },
    { href: `${base}/webhooks`, label: "Webhooks" },
  ];
}

export function ApiIntegrationNav({ slug }: { slug: string }) {
  const pathname = usePathname();
  const tabs = apiIntegrationTabs(slug);
  return (
    <nav aria-label="API Integration" className="mb-6 overflow-x-auto border-b border-slate-200">
      <ul className="flex gap-6">
        {tabs.map((tab) => {
          const active = pathname.startsWith(tab.href);
          return (
            <li key={tab.href}>
              <Link
                href={tab.href}
                aria-current={active ? "page" : undefined}
                className={`-mb-px inline-block whitespace-nowrap border-b-2 px-1 pb-3 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600 ${
                  active ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-600 hover:text-slate-900"
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
