"use client";

import { NavTabs, type NavTab } from "@/components/ui/nav-tabs";
import { apiIntegrationTabs } from "./api-integration-nav";

const linkClassName = {
  base: "block whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600",
  current: "bg-white text-indigo-700 shadow-sm ring-1 ring-slate-200",
  other: "text-slate-600 hover:bg-white hover:text-slate-900",
};

/**
 * The settings tabs; Lead Routing and the Audit log only for owners and admins (`canManage`;
 * their pages check that again).
 * "API Integration" stays current on each of its sub-tabs (api-integration-nav.tsx).
 */
export function SettingsNav({ slug, canManage }: { slug: string; canManage: boolean }) {
  const base = `/t/${slug}/settings`;
  const tabs: NavTab[] = [
    { href: `${base}/general`, label: "General" },
    { href: `${base}/members`, label: "Members" },
    { href: `${base}/sources`, label: "Lead Sources" },
    { href: `${base}/api-keys`, label: "API Integration", also: apiIntegrationTabs(slug).map((tab) => tab.href) },
    { href: `${base}/spam`, label: "Spam" },
    ...(canManage
      ? [
          { href: `${base}/routing`, label: "Lead Routing" },
          { href: `${base}/notifications`, label: "Notifications" },
          { href: `${base}/audit`, label: "Audit log" },
        ]
      : []),
  ];
  return (
    <NavTabs
      label="Settings"
      tabs={tabs}
      className="lg:w-56 lg:shrink-0"
      listClassName="flex gap-1 overflow-x-auto lg:flex-col"
      linkClassName={linkClassName}
    />
  );
}
