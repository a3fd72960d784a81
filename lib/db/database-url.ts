import path from "node:path";

export type DatabaseProvider = "sqlite" | "postgres";

export const DEFAULT_DATABASE_URL = "file:./data/app.db";

/** The database URL in force: DATABASE_URL, else the embedded SQLite file. */
export function databaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  const url = env.DATABASE_URL?.trim();
  return url ? url : DEFAULT_DATABASE_URL;
}

export function databaseProvider(url: string): DatabaseProvider {
  if (/^postgres(ql)?:\/\//i.test(url)) return "postgres";
  if (url.startsWith("file:")) return "sqlite";
  throw new Error(`DATABASE_URL must start with file: (SQLite) or postgresql:// (PostgreSQL); got "${url.split(":")[0]}:…"`);
}

/** Absolute path of a file: URL, resolved against the working directory. */
export function sqliteFilePath(url: string): string {
  return path.resolve(url.replace(/^file:/, "").replace(/\?.*$/, ""));
}
