import Link from "next/link";
import { buttonClass } from "@/components/ui/styles";

/** The 404 text, inside whatever <main> the page already has. */
export function NotFoundMessage() {
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center px-4 text-center">
      <p className="text-sm font-semibold text-indigo-700">404</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-slate-900">Page not found</h1>
      <p className="mt-2 max-w-md text-sm text-slate-600">This page does not exist, or it belongs to a team you are not a member of.</p>
      <Link href="/" className={`${buttonClass("secondary")} mt-6`}>
        Go to your team
      </Link>
    </div>
  );
}
