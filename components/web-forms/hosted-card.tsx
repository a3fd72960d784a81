/**
 * The centred card of the hosted form pages (/f/<id>): the team's, not the app's, brand.
 * `footer` says whose form it is and who hosts it: anyone with an account can publish a
 * form here under any title, so the page never lets a visitor take it for this
 * deployment's own page (issue 27).
 */
export function HostedCard({
  title,
  subtitle,
  footer,
  children,
}: {
  title: string;
  subtitle?: React.ReactNode;
  footer?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="break-words text-xl font-semibold tracking-tight text-slate-900">{title}</h1>
        {subtitle ? <p className="mt-1 break-words text-sm text-slate-600">{subtitle}</p> : null}
        <div className="mt-6">{children}</div>
        {footer ? <p className="mt-6 border-t border-slate-200 pt-4 break-words text-xs text-slate-600">{footer}</p> : null}
      </div>
    </main>
  );
}
