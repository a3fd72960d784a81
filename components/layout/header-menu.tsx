"use client";

import Link from "next/link";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { MenuIcon } from "@/components/ui/icons";
import { buttonClass } from "@/components/ui/styles";
import { useDisclosure } from "@/components/ui/use-disclosure";
import { MainNav } from "./main-nav";

/**
 * The header collapsed on a phone (below 640 px): one "Menu" button that opens the main
 * sections (the team's, when there is one: `slug`), the account and Sign out under the
 * header, so the header keeps to one row.
 */
export function HeaderMenu({ slug, email }: { slug: string | null; email: string }) {
  const { open, close, root, toggle } = useDisclosure("header-menu");
  return (
    <div ref={root} className="ml-auto shrink-0 sm:hidden">
      <button type="button" {...toggle} className={buttonClass("ghost")}>
        <MenuIcon className="h-5 w-5" /> Menu
      </button>
      {open ? (
        <div id="header-menu" className="absolute inset-x-0 top-full z-30 border-b border-slate-200 bg-white px-4 py-3 shadow-lg">
          {slug ? <MainNav slug={slug} variant="menu" onNavigate={close} /> : null}
          <div className={`flex items-center justify-between gap-3 ${slug ? "mt-2 border-t border-slate-100 pt-2" : ""}`}>
            <Link
              href="/account"
              onClick={close}
              className="min-w-0 truncate rounded-md px-3 py-2 text-sm text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              Account <span className="text-slate-500">({email})</span>
            </Link>
            <div className="shrink-0">
              <SignOutButton />
            </div>
          </div>
        </div>
      ) : null}
    </div>
  );
}
