import type Database from "better-sqlite3";
import { db } from "./client";
import { registeredDriver, type Driver } from "./driver-registry";

export type { Driver } from "./driver-registry";

/** The app database's driver, connecting Prisma first when it has not connected yet (or was disconnected). */
export async function driver(): Promise<Driver> {
  const registered = registeredDriver();
  if (registered) return registered;
  await db().$connect();
  const connected = registeredDriver();
  if (!connected) throw new Error("The database adapter did not register its driver");
  return connected;
}

/** Statements prepared once per SQLite connection: `make` runs on a connection's first use, its result is kept with it. */
export function preparedPerConnection<Statements>(
  make: (database: Database.Database) => Statements,
): (database: Database.Database) => Statements {
  const cache = new WeakMap<Database.Database, Statements>();
  return (database) => {
    let statements = cache.get(database);
    if (!statements) {
      statements = make(database);
      cache.set(database, statements);
    }
    return statements;
  };
}

/** A boolean as a driver statement reads it: SQLite's 0/1 (a number or a bigint), PostgreSQL's boolean. */
export const readDriverBoolean = (value: unknown): boolean => value === true || value === 1 || value === 1n;

/** A time as a driver statement reads it: SQLite's ISO text, or epoch milliseconds (PostgreSQL's `EXTRACT(EPOCH …) * 1000`). */
export function readDriverTime(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "number" || typeof value === "bigint") return new Date(Number(value));
  return new Date(String(value));
}
