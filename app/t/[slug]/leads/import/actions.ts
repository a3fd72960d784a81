"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { MANAGERS, withTeamRole, type ActionResult } from "@/lib/auth/require-team-role";
import { COLUMN_TARGETS, type ColumnTarget } from "@/lib/imports/column-mapping";
import { DUPLICATES_MODES, findImport, type DuplicatesMode } from "@/lib/imports/import-store";
import { previewImport, type Preview } from "@/lib/imports/import-preview";
import { importStatusView, type ImportStatusView } from "@/lib/imports/import-status-view";
import { cancelImport, discardDraft, startImport, undoImport } from "@/lib/imports/lead-import";
import { IMPORT_ASSIGN_MODES } from "@/lib/routing/import-assignment";

// Leads → Import (owners and admins); each action checks the Origin, the session and the
// role itself (withTeamRole). The rules are lib/imports/lead-import.ts.

const idSchema = z.string().regex(/^imp_[0-9a-f]{32}$/);
const mappingSchema = z.array(z.enum(COLUMN_TARGETS as [ColumnTarget, ...ColumnTarget[]])).max(200);
const choicesSchema = z.object({
  mapping: mappingSchema,
  duplicates: z.enum(DUPLICATES_MODES as [DuplicatesMode, ...DuplicatesMode[]]),
  sourceId: z.string().max(40).nullable(),
  assign: z.object({ mode: z.enum(IMPORT_ASSIGN_MODES), userId: z.string().max(40).nullable() }),
});
export type ImportChoices = z.infer<typeof choicesSchema>;

const importPath = (slug: string) => `/t/${slug}/leads/import`;
const GONE = "This import no longer exists: reload the page.";

export async function importStatusAction(slug: string, id: string): Promise<ActionResult<{ view: ImportStatusView }>> {
  return withTeamRole<{ view: ImportStatusView }>(slug, MANAGERS, async ({ team }) => {
    const record = idSchema.safeParse(id).success ? await findImport(team.id, id) : null;
    if (!record) return { ok: false, error: GONE };
    return { ok: true, view: importStatusView(record) };
  });
}

export async function previewImportAction(slug: string, id: string, choices: ImportChoices): Promise<ActionResult<{ preview: Preview }>> {
  return withTeamRole<{ preview: Preview }>(slug, MANAGERS, async ({ team }) => {
    const parsed = choicesSchema.safeParse(choices);
    const record = idSchema.safeParse(id).success ? await findImport(team.id, id) : null;
    if (!record || record.status !== "draft") return { ok: false, error: GONE };
    if (!parsed.success) return { ok: false, error: "Reload the page and map the columns again." };
    return { ok: true, preview: await previewImport(record, parsed.data.mapping, { sourceId: parsed.data.sourceId }) };
  });
}

export async function startImportAction(slug: string, id: string, choices: ImportChoices): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const parsed = choicesSchema.safeParse(choices);
    const record = idSchema.safeParse(id).success ? await findImport(team.id, id) : null;
    if (!record) return { ok: false, error: GONE };
    if (!parsed.success) return { ok: false, error: "Reload the page and map the columns again." };
    const result = await startImport({ record, ...parsed.data, actor });
    if (result.ok) revalidatePath(importPath(team.slug));
    return result;
  });
}

export async function cancelImportAction(slug: string, id: string): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const record = idSchema.safeParse(id).success ? await findImport(team.id, id) : null;
    if (!record) return { ok: false, error: GONE };
    if (!(await cancelImport({ record, actor }))) return { ok: false, error: "This import is not running any more." };
    return { ok: true };
  });
}

export async function undoImportAction(slug: string, id: string): Promise<ActionResult<{ deleted: number; kept: string[] }>> {
  return withTeamRole<{ deleted: number; kept: string[] }>(slug, MANAGERS, async ({ team, actor }) => {
    const record = idSchema.safeParse(id).success ? await findImport(team.id, id) : null;
    if (!record) return { ok: false, error: GONE };
    const result = await undoImport({ record, actor });
    if (result.ok) revalidatePath(`/t/${team.slug}/leads`, "layout");
    return result;
  });
}

export async function discardImportAction(slug: string, id: string): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team }) => {
    const record = idSchema.safeParse(id).success ? await findImport(team.id, id) : null;
    if (record) await discardDraft(record);
    revalidatePath(importPath(team.slug));
    return { ok: true };
  });
}
