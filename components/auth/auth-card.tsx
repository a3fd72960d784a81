import { KeyIcon } from "@/components/ui/icons";

/** The centred card of the sign-in and invite pages. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: React.ReactNode; children: React.ReactNode }) {
  return (
    <main id="main" tabIndex={-1} className="flex min-h-screen items-center justify-center px-4 py-12 outline-none">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex items-center gap-2 text-indigo-700">
          <span className="flex h-9 w-9 items-center justify-center rounded-lg bg-indigo-600 text-white">
            <KeyIcon className="h-5 w-5" />
          </span>
          <span className="text-lg font-semibold tracking-tight text-slate-900">Lead Intake</span>
        </div>
        <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
          <h1 className="text-xl font-semibold tracking-tight text-slate-900">{title}</h1>
          {subtitle ? <p className="mt-1 text-sm text-slate-600">{subtitle}</p> : null}
          <div className="mt-6">{children}</div>
        </div>
      </div>
    </main>
  );
}
