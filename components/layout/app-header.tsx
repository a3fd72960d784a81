import Link from "next/link";
import type { SessionUser } from "@/lib/auth/session";
import type { TeamSummary } from "@/lib/teams/team-store";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { HeaderMenu } from "./header-menu";
import { HomeLink } from "./home-link";
import { MainNav } from "./main-nav";
import { TeamSwitcher } from "./team-switcher";

/**
 * One row at every width: on a phone the sections, account and Sign out collapse into "Menu".
 * Without a team (a page of the user's own, such as /account, for a user in no team) there is
 * no team switcher and no team sections.
 */
export function AppHeader({ user, team, teams }: { user: SessionUser; team?: TeamSummary; teams: TeamSummary[] }) {
  return (
    <header className="relative border-b border-slate-200 bg-white">
      <div className="mx-auto flex h-14 max-w-7xl items-center gap-x-3 px-4 sm:h-16 sm:gap-x-4 sm:px-6 lg:px-8">
        <HomeLink compact />
        {team ? (
          <>
            <span className="text-slate-300" aria-hidden="true">
              /
            </span>
            <TeamSwitcher current={team} teams={teams} />
            <MainNav slug={team.slug} />
          </>
        ) : null}
        <div className="ml-auto hidden shrink-0 items-center gap-3 sm:flex">
          <Link
            href="/account"
            className="hidden max-w-56 truncate rounded-md text-sm text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600 md:inline"
            title={`Your account (${user.email}): availability and password`}
          >
            {user.email}
          </Link>
          <Link
            href="/account"
            className="rounded-md text-sm text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600 md:hidden"
          >
            Account
          </Link>
          <SignOutButton />
        </div>
        <HeaderMenu slug={team?.slug ?? null} email={user.email} />
      </div>
    </header>
  );
}
