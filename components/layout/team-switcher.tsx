"use client";

import Link from "next/link";
import type { TeamSummary } from "@/lib/teams/team-store";
import { ROLE_LABEL } from "@/components/members/role-label";
import { CheckIcon, ChevronIcon, PlusIcon } from "@/components/ui/icons";
import { useDisclosure } from "@/components/ui/use-disclosure";

/** A disclosure listing the user's teams, and "New team" at the end. */
export function TeamSwitcher({ current, teams }: { current: TeamSummary; teams: TeamSummary[] }) {
  const { open, close, root, toggle } = useDisclosure("team-switcher-list");

  const label = (
    <>
      <span className="truncate font-medium text-slate-900">{current.name}</span>
      <span className="shrink-0 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">{ROLE_LABEL[current.role]}</span>
    </>
  );
  return (
    <div ref={root} className="relative min-w-0">
      <button
        type="button"
        {...toggle}
        className="flex max-w-full items-center gap-2 rounded-md px-2 py-1.5 text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        {/* No aria-label: the name must contain the text the button shows (WCAG 2.5.3, label in name). */}
        <span className="sr-only">Switch team, current:</span>
        {label}
        <ChevronIcon className="h-4 w-4 shrink-0 text-slate-500" />
      </button>
      {open ? (
        <ul
          id="team-switcher-list"
          aria-label="Your teams"
          className="absolute left-0 z-20 mt-1 w-64 max-w-[calc(100vw-2rem)] rounded-lg border border-slate-200 bg-white p-1 shadow-lg"
        >
          {teams.map((team) => (
            <li key={team.slug}>
              <Link
                href={`/t/${team.slug}/leads`}
                aria-current={team.slug === current.slug ? "true" : undefined}
                onClick={close}
                className="flex items-center justify-between rounded-md px-3 py-2 text-sm text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
              >
                <span className="min-w-0 truncate" title={team.name}>
                  {team.name} <span className="text-xs text-slate-500">· {ROLE_LABEL[team.role]}</span>
                </span>
                {team.slug === current.slug ? <CheckIcon className="h-4 w-4 text-indigo-600" /> : null}
              </Link>
            </li>
          ))}
          <li className="mt-1 border-t border-slate-100 pt-1">
            <Link
              href="/teams/new"
              onClick={close}
              className="flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-indigo-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              <PlusIcon className="h-4 w-4" /> New team
            </Link>
          </li>
        </ul>
      ) : null}
    </div>
  );
}
