import { DateTime } from "@/components/ui/date-time";
import { cardClass } from "@/components/ui/styles";

/** A fact of the card: its term, its detail, and the detail's classes (by default plain text). */
export type DetailFact = { term: string; detail: React.ReactNode; className?: string };

/**
 * The card at the top of an integration's own page (a webhook endpoint, a connection, one of
 * its deliveries): its facts side by side (status, what it is, since when); then, while the
 * credential it had before a roll still works (`previous.until` is after `now`, the page's
 * clock), "`previous.text` <until> (`previous.how`)."; then `children` (the managers' controls).
 */
export function DetailCard({
  facts,
  previous,
  now,
  children,
}: {
  facts: DetailFact[];
  previous?: { text: string; until: Date | null; how: string };
  now?: Date;
  children: React.ReactNode;
}) {
  return (
    <div className={`${cardClass} mb-6 space-y-4 px-5 py-4`}>
      <dl className="grid grid-cols-1 gap-3 text-sm sm:grid-cols-3">
        {facts.map((fact) => (
          <div key={fact.term}>
            <dt className="font-medium text-slate-800">{fact.term}</dt>
            <dd className={fact.className ?? "mt-1 text-slate-700"}>{fact.detail}</dd>
          </div>
        ))}
      </dl>
      {previous && now && previous.until !== null && previous.until > now ? (
        <p className="text-sm text-slate-700">
          {previous.text} <DateTime value={previous.until} /> ({previous.how}).
        </p>
      ) : null}
      {children}
    </div>
  );
}
