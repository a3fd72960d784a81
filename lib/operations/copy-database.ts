import { clientFor, type Db } from "../db/client";
import { databaseProvider } from "../db/database-url";
import { rawJson } from "../db/raw-json";
import { lastLeadNumber, raiseLeadNumber } from "../leads/lead-number-store";
import { migrate } from "../setup/migrate";
import { ROLLUP_MODELS } from "../dashboard/dashboard-rollup";

// Moving a deployment from SQLite to PostgreSQL (or between any two databases): every row
// of every table, copied through Prisma so each value keeps its type, into a migrated,
// empty target, in one transaction there (a failed copy leaves the target as it was).
// Tables are copied in the order models.prisma declares them, which keeps a referenced
// table before the tables that point at it (the copy test fails otherwise).

type Delegate = {
  findMany(args: {
    take: number;
    orderBy: Record<string, "asc">;
    where?: Record<string, { gt: unknown }>;
  }): Promise<Record<string, unknown>[]>;
  createMany(args: { data: Record<string, unknown>[] }): Promise<{ count: number }>;
  deleteMany(args?: object): Promise<{ count: number }>;
  count(): Promise<number>;
};
type Model = { name: string; fields: { name: string; kind: string; type: string }[] };

const BATCH = 1_000;

/** The models, in declaration order, with their fields (Prisma's runtime data model). */
export function models(client: Db): Model[] {
  const runtime = (client as unknown as { _runtimeDataModel: { models: Record<string, { fields: Model["fields"] }> } })._runtimeDataModel;
  return Object.entries(runtime.models).map(([name, model]) => ({ name, fields: model.fields }));
}

export function delegate(client: Db | object, model: string): Delegate {
  return (client as Record<string, Delegate>)[model[0]!.toLowerCase() + model.slice(1)]!;
}

export class CopyRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CopyRefused";
  }
}

export type CopyReport = { table: string; rows: number }[];

/**
 * Copies every row from `fromUrl` into `toUrl`. The target is migrated first; it must
 * hold no user and no lead (the rows its migrations seed are replaced by the source's).
 */
export async function copyDatabase(
  fromUrl: string,
  toUrl: string,
  progress: (table: string, rows: number) => void = () => undefined,
): Promise<CopyReport> {
  migrate({ ...process.env, DATABASE_URL: toUrl });
  const source = clientFor(fromUrl, databaseProvider(fromUrl));
  const target = clientFor(toUrl, databaseProvider(toUrl));
  try {
    const [users, leads] = await Promise.all([target.user.count(), target.lead.count()]);
    if (users || leads) throw new CopyRefused(`The target already holds ${users} users and ${leads} leads; copy into an empty database`);
    // Derived tables are not copied: the dashboard's rollup is rebuilt when read, and each
    // lead's consent status is written by the target's triggers as its evidence is copied.
    const derived = [...ROLLUP_MODELS, "LeadConsentStatus"];
    const tables = models(source).filter((model) => !derived.includes(model.name));
    return await target.$transaction(
      async (tx) => {
        for (const model of [...tables].reverse()) await delegate(tx, model.name).deleteMany();
        const report: CopyReport = [];
        for (const model of tables) {
          const key = model.fields[0]!.name;
          const scalars = model.fields.filter((field) => field.kind === "scalar");
          const json = scalars.filter((field) => field.type === "Json").map((field) => field.name);
          let copied = 0;
          let last: unknown;
          for (;;) {
            const rows = await delegate(source, model.name).findMany({
              take: BATCH,
              orderBy: { [key]: "asc" },
              ...(last === undefined ? {} : { where: { [key]: { gt: last } } }),
            });
            if (!rows.length) break;
            const data = rows.map((row) => {
              const out: Record<string, unknown> = { ...row };
              for (const name of json) {
                if (out[name] === null) delete out[name];
                else out[name] = rawJson(out[name]);
              }
              return out;
            });
            copied += (await delegate(tx, model.name).createMany({ data })).count;
            last = rows[rows.length - 1]![key];
            progress(model.name, copied);
          }
          report.push({ table: model.name, rows: copied });
        }
        // Lead numbers go on after the source's last one (its counter or sequence: a deleted
        // lead's number included), never after a lower one; the copied counter row is the
        // source's, which on PostgreSQL is not where numbers come from.
        const [lastIssued, highest] = await Promise.all([lastLeadNumber(source, fromUrl), source.lead.aggregate({ _max: { seq: true } })]);
        await raiseLeadNumber(tx, Math.max(lastIssued, highest._max.seq ?? 0), toUrl);
        if (databaseProvider(toUrl) === "postgres") {
          // Rows kept their ids: an autoincrement column's sequence starts after them.
          for (const model of tables.filter((m) => m.fields.some((f) => f.name === "id" && f.type === "Int"))) {
            await tx.$executeRawUnsafe(
              `SELECT setval(pg_get_serial_sequence('"${model.name}"', 'id'), (SELECT COALESCE(MAX("id"), 0) + 1 FROM "${model.name}"), false)`,
            );
          }
        }
        return report;
      },
      { maxWait: 10_000, timeout: 60 * 60 * 1000 },
    );
  } finally {
    await Promise.all([source.$disconnect(), target.$disconnect()]);
  }
}
