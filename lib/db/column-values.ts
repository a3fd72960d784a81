// How a value of each column type is sent to each database driver by the statements that
// bypass Prisma (the intake's hot path, an import's batch insert), written exactly as
// Prisma's adapters write it, so the rows read back through Prisma are the same.

export type ColumnType = "text" | "int" | "timestamp" | "json";

/** Prisma's SQLite adapter stores DateTime as ISO 8601 text with "+00:00" (its default timestampFormat). */
export const sqliteTime = (date: Date) => date.toISOString().replace("Z", "+00:00");

/** A timestamp(3) holds UTC wall time (Prisma's convention): sent as text without a zone, so neither node-postgres nor the server shifts it by a local time zone. */
export const pgTime = (date: Date) => date.toISOString().replace("T", " ").replace("Z", "");

/** The PostgreSQL cast of each type's parameter. */
export const PG_CAST: Record<ColumnType, string> = { text: "text", int: "int4", timestamp: "timestamp(3)", json: "jsonb" };

export function sqliteValue(type: ColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (type === "timestamp") return sqliteTime(value as Date);
  if (type === "json") return JSON.stringify(value);
  return value;
}

export function pgValue(type: ColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (type === "timestamp") return pgTime(value as Date);
  if (type === "json") return JSON.stringify(value);
  return value;
}
