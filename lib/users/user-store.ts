import { db } from "../db/client";
import { hashPassword } from "./password";

// Every database access for users lives here.

export type User = { id: string; email: string; name: string | null };

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function createUser(options: { email: string; password: string; name?: string }): Promise<User> {
  return db().user.create({
    data: {
      email: normaliseEmail(options.email),
      name: options.name ?? null,
      passwordHash: await hashPassword(options.password),
    },
    select: { id: true, email: true, name: true },
  });
}

export function findUserByEmail(email: string) {
  return db().user.findUnique({ where: { email: normaliseEmail(email) } });
}
