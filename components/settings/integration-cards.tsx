import Link from "next/link";
import { RecentSpam } from "@/components/spam/recent-spam";
import { OnOffBadge, Badge, type BadgeTone } from "@/components/ui/badge";
import { cardClass, linkClass } from "@/components/ui/styles";

const TERM = "font-medium text-slate-600";

/**
 * A fact of a card: its term and its detail, either `code` (an id, a URL's end, in mono) or
 * `text` (`wrap` says how long words break).
 */
export type CardFact = { term: string } & ({ code: string } | { text: string; wrap?: "break-all" | "break-words" });

/** One integration (a web form, a connection): its page, whether it is on, its facts and its last 24 hours. */
export type IntegrationCard = {
  id: string;
  href: string;
  name: string;
  enabled: boolean;
  facts: CardFact[];
  /** The last 24 hours: the count of what came in, and a badge where some of it needs a look. */
  activity: { total: string; alert: { tone: BadgeTone; text: string } | null };
  /** Its submissions the spam checks set aside in the last 24 hours (shown when some were), and its team's slug for the link to Leads → Spam. */
  spam?: { slug: string; count: number | undefined };
};

function Fact({ fact }: { fact: CardFact }) {
  return (
    <>
      <dt className={TERM}>{fact.term}</dt>
      {"code" in fact ? (
        <dd>
          <code className="break-all font-mono text-xs text-slate-800">{fact.code}</code>
        </dd>
      ) : (
        <dd className={fact.wrap ? `${fact.wrap} text-slate-800` : "text-slate-800"}>{fact.text}</dd>
      )}
    </>
  );
}

/**
 * A list page of Team Settings → API Integration (Web Forms, Connections): a card per
 * integration, named `label` (`empty` where there is none), and beside it, for owners and
 * admins, `aside` (the form that adds one, under its title).
 */
export function IntegrationCards({
  label,
  empty,
  states,
  cards,
  aside,
}: {
  label: string;
  empty: string;
  /** The status badge's text when on and when off. */
  states: readonly [on: string, off: string];
  cards: IntegrationCard[];
  aside: { title: string; content: React.ReactNode } | null;
}) {
  return (
    <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_24rem]">
      {cards.length === 0 ? (
        <p className={`${cardClass} px-5 py-8 text-center text-sm text-slate-600`}>{empty}</p>
      ) : (
        <ul className="space-y-4" aria-label={label}>
          {cards.map((card) => (
            <li key={card.id} className={`${cardClass} p-5`}>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h3 className="min-w-0 break-words text-base font-semibold text-slate-900">
                  <Link href={card.href} className={linkClass}>
                    {card.name}
                  </Link>
                </h3>
                <OnOffBadge on={card.enabled} labels={states} />
              </div>
              <dl className="mt-3 grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]">
                {card.facts.map((fact) => (
                  <Fact key={fact.term} fact={fact} />
                ))}
                <dt className={TERM}>Last 24 hours</dt>
                <dd className="flex flex-wrap items-center gap-x-3 gap-y-1 text-slate-800">
                  <span>{card.activity.total}</span>
                  {card.activity.alert ? <Badge tone={card.activity.alert.tone}>{card.activity.alert.text}</Badge> : null}
                </dd>
                {card.spam ? <RecentSpam slug={card.spam.slug} count={card.spam.count} termClass={TERM} /> : null}
              </dl>
            </li>
          ))}
        </ul>
      )}
      {aside ? (
        <div>
          <h3 className="mb-3 text-base font-semibold text-slate-900">{aside.title}</h3>
          {aside.content}
        </div>
      ) : null}
    </div>
  );
}
