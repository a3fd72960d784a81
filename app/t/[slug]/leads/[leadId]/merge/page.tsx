import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { MANAGERS, requireTeamPage } from "@/lib/auth/require-team-role";
import { defaultChoices, MAX_MERGED, MERGE_FIELDS } from "@/lib/leads/merge-leads";
import { findPossibleDuplicates } from "@/lib/leads/duplicate-store";
import { findLeadsForMerge } from "@/lib/leads/lead-merge-store";
import { findLead } from "@/lib/leads/lead-store";
import { Breadcrumb } from "@/components/layout/breadcrumb";
import { MergeForm, type MergeCandidate } from "@/components/leads/merge-form";

export const metadata: Metadata = { title: "Merge duplicates · Lead Intake" };

export default async function MergePage({ params }: { params: Promise<{ slug: string; leadId: string }> }) {
  const { slug, leadId } = await params;
  const { team } = await requireTeamPage(slug, `/t/${slug}/leads/${leadId}/merge`, MANAGERS);
  const lead = await findLead({ id: leadId, teamId: team.id });
  if (!lead) notFound();
  const duplicates = (await findPossibleDuplicates(lead)).slice(0, MAX_MERGED);
  const rows = await findLeadsForMerge(team.id, [lead.id, ...duplicates.map((d) => d.id)]);
  const candidates: MergeCandidate[] = rows.map((row) => ({
    id: row.id,
    name: [row.firstName, row.lastName].filter(Boolean).join(" "),
    createdAt: row.createdAt.toISOString(),
    values: Object.fromEntries(MERGE_FIELDS.map(([field]) => [field, row[field]])),
  }));

  return (
    <div>
      <Breadcrumb href={`/t/${team.slug}/leads/${lead.id}`}>← {lead.id}</Breadcrumb>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Merge duplicates into {lead.id}</h1>
      <p className="mt-1 mb-6 max-w-3xl text-sm text-slate-600">
        Choose the leads to merge and, per field, the value to keep (preselected: the newest lead with a value). Extra fields are combined;
        a field with different values keeps them all as a list. The merged leads are deleted and their ids are recorded on {lead.id}.
      </p>
      {duplicates.length ? (
        <MergeForm slug={team.slug} survivorId={lead.id} candidates={candidates} defaults={defaultChoices(lead.id, rows)} />
      ) : (
        <p className="text-sm text-slate-600">This lead has no possible duplicates to merge.</p>
      )}
    </div>
  );
}
