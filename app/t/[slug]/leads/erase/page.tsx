import type { Metadata } from "next";
import { MANAGERS, requireTeamPage } from "@/lib/auth/require-team-role";
import { formatPhone } from "@/lib/leads/format-phone";
import { findPersonRecords, parsePerson } from "@/lib/leads/erase-person";
import { Breadcrumb } from "@/components/layout/breadcrumb";
import { EraseButton } from "@/components/leads/erase-button";
import { erasedSentence, erasureFromQuery, recordCount, recordLines, uncheckedFiles } from "@/components/leads/erasure-words";
import { LeadRows } from "@/components/leads/lead-rows";
import { Field } from "@/components/ui/field";
import { buttonClass, cardClass, inputClass } from "@/components/ui/styles";

export const metadata: Metadata = { title: "Erase a person · Leads · Lead Intake" };

const REASON = { email: "same email", phone: "same phone", duplicate: "possible duplicate" } as const;

export default async function ErasePage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { slug } = await params;
  const { team } = await requireTeamPage(slug, `/t/${slug}/leads/erase`, MANAGERS);
  const search = await searchParams;
  const who = typeof search.who === "string" ? search.who.slice(0, 320) : "";
  const erased = erasureFromQuery(search);
  const person = who ? parsePerson(who, team) : null;
  const found = person ? await findPersonRecords(team, person) : null;
  const leads = found?.leads ?? [];
  const records = found ? recordLines(found.records) : [];
  const recordTotal = found ? recordCount(found.records) : 0;

  return (
    <div className="max-w-3xl">
      <Breadcrumb href={`/t/${team.slug}/leads`}>← Leads</Breadcrumb>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Erase a person</h1>
      <p className="mt-1 text-sm text-slate-600">
        For a data-subject erasure request: every lead with this email or phone number, and their possible duplicates, is deleted in one
        step, with everything else of the team that names the person (request-log entries, stored API responses, webhook and email jobs,
        refused import rows, draft imports, kept connection deliveries), also when no lead is left. The audit log keeps the lead ids and the
        counts only.
      </p>
      {erased !== null ? (
        <p role="status" className="mt-4 rounded-md bg-emerald-50 px-4 py-3 text-sm text-emerald-800">
          {erasedSentence(erased)}
        </p>
      ) : null}
      <form action={`/t/${team.slug}/leads/erase`} className="mt-6 flex flex-wrap items-end gap-2">
        <Field id="erase-who" label="Email or phone number" className="min-w-64 flex-1">
          <input id="erase-who" name="who" defaultValue={who} maxLength={320} required className={`${inputClass} mt-1`} />
        </Field>
        <button type="submit" className={buttonClass("secondary")}>
          Find leads
        </button>
      </form>
      {who && !person ? (
        <p role="alert" className="mt-4 text-sm text-red-700">
          That is neither an email address nor a phone number we can read (plain numbers are read in the team&apos;s default country).
        </p>
      ) : null}
      {person ? (
        <section aria-labelledby="erase-matches" className={`${cardClass} mt-6 p-5`}>
          <h2 id="erase-matches" className="text-sm font-semibold text-slate-900">
            {leads.length === 1 ? "1 lead matches" : `${leads.length} leads match`}
          </h2>
          {leads.length ? (
            <LeadRows
              leads={leads}
              why={(lead) => REASON[lead.reason]}
              noteClassName="text-xs text-slate-600"
              who={(lead) => (
                <>
                  <span className="font-mono text-xs text-slate-600">{lead.id}</span>
                  <span className="text-slate-900">{lead.name}</span>
                  <span className="text-slate-600">{lead.email ?? formatPhone(lead.phone ?? lead.mobileNo)}</span>
                </>
              )}
            />
          ) : (
            <p className="mt-3 text-sm text-slate-600">No lead of this team has this email or phone number.</p>
          )}
          {records.length ? (
            <>
              <h3 id="erase-records" className="mt-4 text-sm font-semibold text-slate-900">
                {leads.length ? "Also naming this person" : "What still names this person"}
              </h3>
              <ul aria-labelledby="erase-records" className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-700">
                {records.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </>
          ) : leads.length ? null : (
            <p className="mt-2 text-sm text-slate-600">Nothing else of this team names them either.</p>
          )}
          {found?.records.importFilesUnchecked ? (
            <p className="mt-2 text-sm text-amber-800">{uncheckedFiles(found.records.importFilesUnchecked)}</p>
          ) : null}
          {leads.length || recordTotal ? (
            <div className="mt-4">
              <EraseButton slug={team.slug} who={who} ids={leads.map((lead) => lead.id)} records={recordTotal} />
            </div>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
