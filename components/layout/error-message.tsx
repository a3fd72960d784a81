"use client";

import { buttonClass } from "@/components/ui/styles";

/** What an error boundary shows: the page failed, nothing else did; try again or go home. */
export function ErrorMessage({ digest, reset }: { digest?: string; reset: () => void }) {
  return (
    <div role="alert" className="flex min-h-[60vh] flex-col items-center justify-center px-4 text-center">
      <p className="text-sm font-semibold text-red-700">Something went wrong</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-slate-900">This page could not be shown</h1>
      <p className="mt-2 max-w-md text-sm text-slate-600">
        The server could not be reached or failed while building this page. Nothing you entered was lost on the server; try again in a
        moment.{digest ? ` (Reference ${digest})` : ""}
      </p>
      <div className="mt-6 flex gap-3">
        <button type="button" onClick={reset} className={buttonClass("primary")}>
          Try again
        </button>
        {/* A full page load on purpose: the client router may be what failed. */}
        {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
        <a href="/" className={buttonClass("secondary")}>
          Go to your team
        </a>
      </div>
    </div>
  );
}
