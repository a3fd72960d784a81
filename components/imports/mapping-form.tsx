"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { discardImportAction, previewImportAction, startImportAction, type ImportChoices } from "@/app/t/[slug]/leads/import/actions";
import { COLUMN_TARGETS, TARGET_LABELS, type ColumnMapping, type ColumnTarget } from "@/lib/imports/column-mapping";
import type { AssignmentOptions } from "@/lib/imports/import-assignment-choice";
import type { Preview, PreviewRow } from "@/lib/imports/import-preview";
import { Field } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { namedChoices, SelectOptions } from "@/components/ui/select-options";
import { buttonClass, cardClass, focusRingClass, inputClass, labelClass } from "@/components/ui/styles";
import { TableHead } from "@/components/ui/table-head";
import { AssignmentChoice, type AssignChoice } from "./assignment-choice";

const th = "px-3 py-2 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase";
const td = "px-3 py-2 text-sm text-slate-800 align-top";
const number = (n: number) => n.toLocaleString("en-US");
const rowCount = (n: number) => `${number(n)} row${n === 1 ? "" : "s"}`;

const DUPLICATE_CHOICES = [
  ["skip", "Skip them", "Rows whose email or phone matches a lead of the team (or an earlier row of this file) are not imported."],
  ["update", "Fill in the matching lead", "The matching lead's empty fields are filled from the row; nothing it has is replaced."],
  ["create", "Create them anyway", "Every row becomes a new lead; the lead list marks possible duplicates."],
] as const;

/** What a preview row will show in its Problems cell. */
function problems(row: PreviewRow): string {
  if (!row.ok) return `Refused: ${row.reason}`;
  const kept = [
    row.lead.skippedPhone !== null ? `phone "${row.lead.skippedPhone}"` : null,
    row.lead.skippedMobileNo !== null ? `mobile "${row.lead.skippedMobileNo}"` : null,
    row.lead.skippedWebsite !== null ? `website "${row.lead.skippedWebsite}"` : null,
  ].filter(Boolean);
  return kept.length ? `Invalid ${kept.join(", ")}: skipped, kept as typed` : "";
}

/**
 * Steps 2 to 4 of Leads → Import: each column's field (proposed from its name, or the
 * team's last mapping of the same headers), the source, duplicates and owner choices, a
 * preview of the first rows as they will be stored, and the start.
 */
export function MappingForm({
  slug,
  id,
  fileName,
  headers,
  samples,
  proposed,
  remembered,
  sources,
  assignment,
}: {
  slug: string;
  id: string;
  fileName: string;
  headers: string[];
  samples: string[][];
  proposed: ColumnMapping;
  remembered: boolean;
  sources: { id: string; name: string }[];
  assignment: AssignmentOptions;
}) {
  const router = useRouter();
  const [mapping, setMapping] = useState<ColumnMapping>(proposed);
  const [duplicates, setDuplicates] = useState<ImportChoices["duplicates"]>("skip");
  const [sourceId, setSourceId] = useState<string>("");
  const [assign, setAssign] = useState<AssignChoice>({ mode: "none", userId: null });
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const choices: ImportChoices = { mapping, duplicates, sourceId: sourceId || null, assign };

  const changed = (update: () => void) => {
    update();
    setPreview(null);
  };

  function showPreview() {
    setError(null);
    startTransition(async () => {
      const result = await previewImportAction(slug, id, choices);
      if (result.ok) setPreview(result.preview);
      else setError(result.error);
    });
  }

  function start() {
    setError(null);
    startTransition(async () => {
      const result = await startImportAction(slug, id, choices);
      if (result.ok) router.refresh();
      else setError(result.error);
    });
  }

  function discard() {
    startTransition(async () => {
      await discardImportAction(slug, id);
      router.push(`/t/${slug}/leads/import`);
    });
  }

  return (
    <div className="space-y-6">
      <section aria-labelledby="mapping-heading" className={`${cardClass} p-5`}>
        <h2 id="mapping-heading" className="text-base font-semibold text-slate-900">
          Map the columns of {fileName}
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          {remembered
            ? "These are the choices of this team's last import of a file with the same columns."
            : "Proposed from the column names. Columns you leave as extra fields are stored under their name, as the API stores unknown fields."}
        </p>
        <div role="region" aria-label="Columns" tabIndex={0} className={`mt-4 overflow-x-auto ${focusRingClass}`}>
          <table className="min-w-full divide-y divide-slate-200">
            <TableHead columns={["Column", "First values", "Import as"]} thClassName={th} />
            <tbody className="divide-y divide-slate-100">
              {headers.map((header, index) => (
                <tr key={`${header}-${index}`}>
                  <th scope="row" className={`${td} text-left font-medium break-words`}>
                    {header}
                  </th>
                  <td className={`${td} max-w-48 truncate text-slate-600`} title={samples.map((row) => row[index] ?? "").join(" | ")}>
                    {samples
                      .map((row) => row[index] ?? "")
                      .filter(Boolean)
                      .join(", ") || "—"}
                  </td>
                  <td className={td}>
                    <label htmlFor={`map-${index}`} className="sr-only">
                      Import {header} as
                    </label>
                    <select
                      id={`map-${index}`}
                      value={mapping[index]}
                      onChange={(event) =>
                        changed(() => setMapping(mapping.map((target, i) => (i === index ? (event.target.value as ColumnTarget) : target))))
                      }
                      className={`${inputClass} min-w-44`}
                    >
                      {COLUMN_TARGETS.map((target) => (
                        <option key={target} value={target}>
                          {TARGET_LABELS[target]}
                        </option>
                      ))}
                    </select>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="choices-heading" className={`${cardClass} space-y-5 p-5`}>
        <h2 id="choices-heading" className="text-base font-semibold text-slate-900">
          Source and duplicates
        </h2>
        <Field id="import-source" label="Lead source for rows without one">
          <select
            id="import-source"
            value={sourceId}
            onChange={(event) => changed(() => setSourceId(event.target.value))}
            className={`${inputClass} mt-1 max-w-sm`}
          >
            <SelectOptions none="As the API does (a mapped Source column, else API)" choices={namedChoices(sources)} />
          </select>
        </Field>
        <fieldset>
          <legend className={labelClass}>Rows that match a lead already there</legend>
          <div className="mt-2 space-y-2">
            {DUPLICATE_CHOICES.map(([value, label, help]) => (
              <div key={value} className="flex items-start gap-2">
                <input
                  id={`duplicates-${value}`}
                  type="radio"
                  name="duplicates"
                  value={value}
                  checked={duplicates === value}
                  onChange={() => setDuplicates(value)}
                  aria-describedby={`duplicates-${value}-help`}
                  className="mt-1 h-4 w-4"
                />
                <div>
                  <label htmlFor={`duplicates-${value}`} className="text-sm font-medium text-slate-800">
                    {label}
                  </label>
                  <p id={`duplicates-${value}-help`} className="text-sm text-slate-600">
                    {help}
                  </p>
                </div>
              </div>
            ))}
          </div>
        </fieldset>
      </section>

      <AssignmentChoice slug={slug} value={assign} onChange={setAssign} options={assignment} />

      <FormError error={error} />
      <div className="flex flex-wrap gap-2">
        <button type="button" onClick={showPreview} disabled={pending} className={buttonClass(preview ? "secondary" : "primary")}>
          {pending && !preview ? "Reading the file…" : "Preview"}
        </button>
        <button type="button" onClick={discard} disabled={pending} className={buttonClass("ghost")}>
          Discard this file
        </button>
      </div>

      {preview ? (
        <section aria-labelledby="preview-heading" className={`${cardClass} space-y-4 p-5`}>
          <h2 id="preview-heading" className="text-base font-semibold text-slate-900">
            Preview
          </h2>
          {preview.problem ? (
            <p role="alert" className="text-sm text-red-700">
              {preview.problem}
            </p>
          ) : (
            <>
              <p className="text-sm text-slate-700">
                {number(preview.totalRows)} rows; {number(preview.refusedRows)} would be refused. The first {preview.rows.length} as they
                will be stored:
              </p>
              <div role="region" aria-label="Preview rows" tabIndex={0} className={`overflow-x-auto ${focusRingClass}`}>
                <table className="min-w-full divide-y divide-slate-200">
                  <TableHead
                    columns={["Row", "Name", "Email", "Phone", "Organization", "Source", "Extra fields", "Problems"]}
                    thClassName={th}
                  />
                  <tbody className="divide-y divide-slate-100">
                    {preview.rows.map((row) => (
                      <tr key={row.row} data-row={row.row} className={row.ok ? undefined : "bg-red-50"}>
                        <td className={td}>{row.row}</td>
                        <td className={td}>{row.ok ? [row.lead.firstName, row.lead.lastName].filter(Boolean).join(" ") : "—"}</td>
                        <td className={`${td} break-all`}>{row.ok ? (row.lead.email ?? "") : ""}</td>
                        <td className={td}>{row.ok ? [row.lead.phone, row.lead.mobileNo].filter(Boolean).join(", ") : ""}</td>
                        <td className={td}>{row.ok ? row.lead.organization : ""}</td>
                        <td className={td}>{row.ok ? row.lead.source : ""}</td>
                        <td className={`${td} break-words`}>
                          {row.ok
                            ? Object.entries(row.lead.extraFields)
                                .map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(", ") : String(value)}`)
                                .join("; ")
                            : ""}
                        </td>
                        <td className={`${td} ${row.ok ? "text-amber-800" : "text-red-800"}`}>{problems(row)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <button type="button" onClick={start} disabled={pending} className={buttonClass()}>
                {pending ? "Starting…" : `Import ${rowCount(preview.totalRows - preview.refusedRows)}`}
              </button>
            </>
          )}
        </section>
      ) : null}
    </div>
  );
}
