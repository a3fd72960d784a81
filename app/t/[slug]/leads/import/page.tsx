import type { Metadata } from "next";
import Link from "next/link";
import { MANAGERS, requireTeamPage } from "@/lib/auth/require-team-role";
import { headerSignature } from "@/lib/imports/column-mapping";
import { activeImport, findImport, lastMapping, listImports, type ImportRecord } from "@/lib/imports/import-store";
import { assignmentLabel, assignmentOptions } from "@/lib/imports/import-assignment-choice";
import { sampleRows } from "@/lib/imports/import-preview";
import { keptLeadIds, MAX_IMPORT_BYTES, rememberedMapping } from "@/lib/imports/lead-import";
import { proposeMapping } from "@/lib/imports/column-mapping";
import { listLeadSourceNames } from "@/lib/teams/lead-sources";
import { ImportProgress } from "@/components/imports/import-progress";
import { MappingForm } from "@/components/imports/mapping-form";
import { ProgressBar } from "@/components/imports/progress-bar";
import { UndoImportButton } from "@/components/imports/undo-import-button";
import { UploadForm } from "@/components/imports/upload-form";
import { DateCell } from "@/components/ui/date-time";
import { buttonClass, cardClass, focusRingClass, linkClass } from "@/components/ui/styles";
import { TableHead } from "@/components/ui/table-head";
import { importStatusView } from "@/lib/imports/import-status-view";

export const metadata: Metadata = { title: "Import leads · Lead Intake" };

type Search = Record<string, string | string[] | undefined>;

const number = (n: number) => n.toLocaleString("en-US");
const ACTIVE = ["queued", "running", "cancelling"];

const STATUS_LABEL: Record<ImportRecord["status"], string> = {
  draft: "Not started",
  queued: "Waiting",
  running: "Running",
  cancelling: "Stopping",
  cancelled: "Cancelled",
  done: "Done",
  failed: "Failed",
  undone: "Undone",
};

const td = "px-4 py-3 text-sm text-slate-700";

function Result({ slug, record, kept, assignment }: { slug: string; record: ImportRecord; kept: string[]; assignment: string }) {
  const heading = {
    done: "Import finished",
    cancelled: "Import cancelled",
    failed: "Import failed",
    undone: "Import undone",
  }[record.status as "done" | "cancelled" | "failed" | "undone"];
  const counts: [string, number][] = [
    ["Created", record.createdCount],
    ["Updated", record.updatedCount],
    ["Skipped as duplicates", record.skippedCount],
    ["Refused", record.refusedCount],
  ];
  return (
    <section aria-labelledby="result-heading" className={`${cardClass} space-y-4 p-5`}>
      <h2 id="result-heading" className="text-base font-semibold text-slate-900">
        {heading}
      </h2>
      <p className="text-sm text-slate-700">
        {record.fileName}: {number(record.cursor)} of {number(record.totalRows)} rows read.
        {record.status === "cancelled" ? " It was cancelled: the leads written before are kept." : ""}
        {record.status === "failed" && record.error ? ` ${record.error}` : ""}
      </p>
      <p className="text-sm text-slate-700">
        <span className="font-medium">Owners:</span> {assignment}
      </p>
      <ProgressBar done={record.cursor} total={record.totalRows} />
      <dl aria-label="Import counts" className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {counts.map(([label, value]) => (
          <div key={label} className="rounded-lg bg-slate-50 px-4 py-3">
            <dt className="text-xs font-medium text-slate-600">{label}</dt>
            <dd className="mt-1 text-xl font-semibold text-slate-900">{number(value)}</dd>
          </div>
        ))}
      </dl>
      {record.status === "undone" ? (
        <p className="text-sm text-slate-700">
          The leads it created were deleted
          {kept.length ? (
            <>
              , except {kept.length === 1 ? "one lead" : `${kept.length} leads`} that other leads were merged into since, kept:{" "}
              {kept.map((id, index) => (
                <span key={id}>
                  {index ? ", " : ""}
                  <Link href={`/t/${slug}/leads/${id}`} className={linkClass}>
                    {id}
                  </Link>
                </span>
              ))}
            </>
          ) : null}
          .
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {record.refusedCount > 0 ? (
          <a href={`/t/${slug}/leads/import/${record.id}/refused`} download className={buttonClass("secondary")}>
            Download refused rows (CSV)
          </a>
        ) : null}
        {record.status !== "undone" && record.createdCount > 0 ? (
          <>
            <Link href={`/t/${slug}/leads?import=${record.id}`} className={buttonClass("secondary")}>
              View imported leads
            </Link>
            <UndoImportButton slug={slug} id={record.id} created={record.createdCount} />
          </>
        ) : null}
        <Link href={`/t/${slug}/leads/import`} className={buttonClass("ghost")}>
          Import another file
        </Link>
      </div>
    </section>
  );
}

function ImportList({ slug, imports }: { slug: string; imports: ImportRecord[] }) {
  if (!imports.length) return null;
  return (
    <div className="mt-8">
      <h2 className="mb-3 text-base font-semibold text-slate-900">Recent imports</h2>
      <div role="region" aria-label="Recent imports" tabIndex={0} className={`${cardClass} overflow-x-auto ${focusRingClass}`}>
        <table className="min-w-full divide-y divide-slate-200">
          <TableHead columns={["File", "Status", "Rows", "Created", "Uploaded"]} />
          <tbody className="divide-y divide-slate-100">
            {imports.map((record) => (
              <tr key={record.id}>
                <td className={`${td} max-w-64 truncate`} title={record.fileName}>
                  <Link href={`/t/${slug}/leads/import?id=${record.id}`} className={linkClass}>
                    {record.fileName}
                  </Link>
                </td>
                <td className={td}>{STATUS_LABEL[record.status]}</td>
                <td className={td}>{number(record.totalRows)}</td>
                <td className={td}>{number(record.createdCount)}</td>
                <DateCell value={record.createdAt} className={td} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

async function Step({ slug, record }: { slug: string; record: ImportRecord }) {
  if (record.status === "draft") {
    const [samples, last, sources, assignment] = await Promise.all([
      sampleRows(record),
      lastMapping(record.teamId, headerSignature(record.headers)),
      listLeadSourceNames(record.teamId),
      assignmentOptions(record.teamId),
    ]);
    const remembered = rememberedMapping(record.headers, last);
    return (
      <MappingForm
        slug={slug}
        id={record.id}
        fileName={record.fileName}
        headers={record.headers}
        samples={samples}
        proposed={remembered ?? proposeMapping(record.headers)}
        remembered={remembered !== null}
        sources={sources}
        assignment={assignment}
      />
    );
  }
  const assignment = await assignmentLabel(record);
  if (ACTIVE.includes(record.status)) {
    return <ImportProgress slug={slug} id={record.id} initial={importStatusView(record)} assignment={assignment} />;
  }
  const kept = record.status === "undone" ? await keptLeadIds(record) : [];
  return <Result slug={slug} record={record} kept={kept} assignment={assignment} />;
}

export default async function ImportPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<Search> }) {
  const { slug } = await params;
  const { team } = await requireTeamPage(slug, `/t/${slug}/leads/import`, MANAGERS);
  const search = await searchParams;
  const id = typeof search.id === "string" ? search.id : null;
  const record = id ? await findImport(team.id, id) : null;
  const [running, imports] = await Promise.all([record ? null : activeImport(team.id), record ? [] : listImports(team.id)]);
  const base = `/t/${team.slug}/leads`;

  return (
    <div className="max-w-5xl">
      <p className="mb-2 text-sm">
        <Link href={base} className={linkClass}>
          ← Leads
        </Link>
      </p>
      <h1 className="mb-1 text-2xl font-semibold tracking-tight text-slate-900">Import leads</h1>
      <p className="mb-6 max-w-2xl text-sm text-slate-600">
        Bring leads in from a spreadsheet or another CRM: a CSV file whose first row names the columns. Each row becomes a lead by the same
        rules as the API. Nothing is written before you have seen the preview, and an import can be undone.
      </p>
      {id && !record ? (
        <p role="alert" className="mb-6 text-sm text-red-700">
          That import does not exist (a file not started is forgotten when it is discarded).
        </p>
      ) : null}
      {record ? (
        <Step slug={team.slug} record={record} />
      ) : (
        <>
          {running ? (
            <p className={`${cardClass} mb-6 px-5 py-4 text-sm text-slate-700`}>
              An import is running ({running.fileName}):{" "}
              <Link href={`${base}/import?id=${running.id}`} className={linkClass}>
                see its progress
              </Link>
              . A team runs one import at a time.
            </p>
          ) : null}
          <section aria-labelledby="upload-heading" className={`${cardClass} p-5`}>
            <h2 id="upload-heading" className="mb-4 text-base font-semibold text-slate-900">
              Upload a CSV file
            </h2>
            <UploadForm slug={team.slug} maxMegabytes={MAX_IMPORT_BYTES / 1024 / 1024} />
          </section>
          <ImportList slug={team.slug} imports={imports} />
        </>
      )}
    </div>
  );
}
