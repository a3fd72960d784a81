import bcrypt from "bcryptjs";

// Kept apart from the next-auth options so plain Node scripts (seed, CLI) can use it.
const COST = 12;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}
