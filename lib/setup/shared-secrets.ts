/**
 * What `npm start` warns about on PostgreSQL: instances sharing one database must share
 * the secret-encryption key and the session secret. Without them in the environment, each
 * instance generates its own key files in its DATA_DIR: an instance then cannot decrypt
 * secrets another one sealed (the Copy button fails), and sessions signed by one are
 * refused by the other.
 */
export function sharedSecretWarnings(env: Record<string, string | undefined>, provider: "sqlite" | "postgres"): string[] {
  if (provider !== "postgres") return [];
  const missing = ["SECRET_ENCRYPTION_KEY", "NEXTAUTH_SECRET"].filter((name) => !env[name]?.trim());
  if (!missing.length) return [];
  return [
    `Warning: ${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} not set; this instance uses key files in DATA_DIR.`,
    "Several instances on one PostgreSQL database must share these values (set them in every instance's environment),",
    "or secrets sealed by one instance cannot be copied on another and sessions do not carry over (docs/operations.md).",
  ];
}
