"use client";

import { NavTabs, type NavTab } from "@/components/ui/nav-tabs";

/**
 * The sub-tabs of Team Settings → API Integration. Each page of the group renders this above
 * its own section; a new integration (web forms, webhooks) adds its entry here.
 */
export function apiIntegrationTabs(slug: string): NavTab[] {
  const base = `/t/${slug}/settings`;
  return [
    { href: `${base}/api-keys`, label: "API Keys" },
    { href: `${base}/web-forms`, label: "Web Forms" },
    { href: `${base}/connections`, label: "Connections" },
    { href: `${base}/webhooks`, label: "Webhooks" },
  ];
}

const linkClassName = {
  base: "-mb-px inline-block whitespace-nowrap border-b-2 px-1 pb-3 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600",
  current: "border-indigo-600 text-indigo-700",
  other: "border-transparent text-slate-600 hover:text-slate-900",
};

export function ApiIntegrationNav({ slug }: { slug: string }) {
  return (
    <NavTabs
      label="API Integration"
      tabs={apiIntegrationTabs(slug)}
      className="mb-6 overflow-x-auto border-b border-slate-200"
      listClassName="flex gap-6"
      linkClassName={linkClassName}
    />
  );
}
