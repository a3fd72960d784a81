/** Title row of a settings tab: heading, short description and an optional action. */
export function SectionHeader({ title, description, action }: { title: string; description?: React.ReactNode; action?: React.ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
      <div className="min-w-0">
        {/* Titles carry team-chosen names (a key's description, a form's name): long words wrap. */}
        <h2 className="text-lg font-semibold [overflow-wrap:anywhere] text-slate-900">{title}</h2>
        {description ? <p className="mt-1 max-w-2xl text-sm text-slate-600">{description}</p> : null}
      </div>
      {action}
    </div>
  );
}
