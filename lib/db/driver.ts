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
