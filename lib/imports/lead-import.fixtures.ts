import assert from "node:assert/strict";
import { Readable } from "node:stream";
import type { AuditActor } from "../audit/audit-log";
import { Dispatcher } from "../jobs/dispatcher";
import { createLead } from "../leads/create-lead";
import type { LeadInput } from "../leads/parse-lead-input";
import type { ImportAssignChoice } from "../routing/import-assignment";
import { createTeam } from "../teams/team-store";
import { proposeMapping, type ColumnMapping } from "./column-mapping";
import { importHandler } from "./import-job";
import { findImport, type DuplicatesMode, type ImportRecord } from "./import-store";
import { startImport, uploadImport } from "./lead-import";

// Shared setup of the lead import's tests (lead-import-*.test.ts): teams, uploads, running an
// import to its end through the import lane, and leads created the API's way. Not a test file
// itself; each test file calls useTestDatabase() before using any of this.

export const actor: AuditActor = { userId: null, ip: "203.0.113.9", via: "web" };

let teams = 0;
export const makeTeam = (defaultPhoneCountry: string | null = "GB") =>
  createTeam({ slug: `import-${++teams}`, name: `Import ${teams}`, defaultPhoneCountry });

export const upload = (teamId: string, text: string, fileName = "leads.csv") =>
  uploadImport({ teamId, fileName, body: Readable.from([Buffer.from(text, "utf8")]), createdById: null });

/** The stream's text, BOM included. */
export async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(await new Response(stream).arrayBuffer());
}

/** Starts an import and runs its job to the end through the import lane's dispatcher. */
export async function run(
  record: ImportRecord,
  options: { mapping?: ColumnMapping; duplicates?: DuplicatesMode; sourceId?: string | null; assign?: ImportAssignChoice } = {},
): Promise<ImportRecord> {
  const started = await startImport({
    record,
    mapping: options.mapping ?? proposeMapping(record.headers),
    duplicates: options.duplicates ?? "create",
    sourceId: options.sourceId ?? null,
    assign: options.assign,
    actor,
  });
  assert.deepEqual(started, { ok: true });
  return finish(record);
}

/** Runs a started import's job to the end through the import lane's dispatcher. */
export async function finish(record: ImportRecord): Promise<ImportRecord> {
  // The lane takes what is due (other tests leave queued imports too) until this one has ended.
  const dispatcher = new Dispatcher({
    handlers: { import: importHandler },
    lane: "imports",
    leaseMs: 60_000,
    retryBaseMs: 1_000,
    workerId: "lane",
  });
  for (;;) {
    const current = (await findImport(record.teamId, record.id))!;
    if (!["queued", "running"].includes(current.status)) return current;
    assert.ok((await dispatcher.runOnce()) > 0, "the import's job is due");
  }
}

export async function lead(teamId: string, input: Partial<LeadInput> & { name: string }, defaultPhoneCountry = "GB"): Promise<string> {
  return (await createLead({ team: { id: teamId, defaultPhoneCountry }, apiKeyId: null, input: { extraFields: {}, ...input } })).leadId;
}
