import Link from "next/link";
import { NotFoundMessage } from "@/components/layout/not-found-message";
import { KeyIcon } from "@/components/ui/icons";

// A page outside any team that does not exist: the app's header (its name, home) and the 404 text.
export default function NotFound() {
  return (
    <>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-7xl items-center px-4 sm:px-6 lg:px-8">
          <Link href="/" className="flex items-center gap-2 rounded-md focus-visible:outline-2 focus-visible:outline-indigo-600">
            <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-indigo-600 text-white">
              <KeyIcon className="h-4 w-4" />
            </span>
            <span className="font-semibold tracking-tight">Lead Intake</span>
          </Link>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="outline-none">
        <NotFoundMessage />
      </main>
    </>
  );
}
