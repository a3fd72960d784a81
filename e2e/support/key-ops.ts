// Key operations on the database named by DATABASE_URL (and DATA_DIR), for tests whose
// server has a database of its own (e2e/api/key-expiry.spec.ts): the test process's own
// db() is bound to the shared run's database. Prints the result as one JSON line.
// Usage: tsx e2e/support/key-ops.ts '<json operation>'
import { createApiKey, rollApiKey, updateApiKey } from "../../lib/api-keys/api-key-changes";
import { db } from "../../lib/db/client";
import { listRequests } from "../../lib/request-log/request-log-store";
import { createTeam } from "../../lib/teams/team-store";

export type KeyOp =
  | { op: "team"; slug: string }
  | { op: "create"; teamId: string; description: string; expiresAt?: string | null }
  | { op: "update"; teamId: string; keyId: string; expiresAt: string | null }
  | { op: "roll"; teamId: string; keyId: string; oldKeyExpiresAt: string }
  | { op: "requests"; teamId: string; keyId: string };

const date = (text: string | null | undefined) => (text ? new Date(text) : null);

async function run(operation: KeyOp): Promise<unknown> {
  switch (operation.op) {
    case "team":
      return (await createTeam({ slug: operation.slug, name: operation.slug })).id;
    case "create":
      return createApiKey({ teamId: operation.teamId, description: operation.description, expiresAt: date(operation.expiresAt) });
    case "update":
      return updateApiKey({ keyId: operation.keyId, teamId: operation.teamId, expiresAt: date(operation.expiresAt) });
    case "roll":
      return rollApiKey({
        keyId: operation.keyId,
        teamId: operation.teamId,
        oldKeyExpiresAt: new Date(operation.oldKeyExpiresAt),
        createdById: null,
      });
    case "requests":
      return (await listRequests({ teamId: operation.teamId, of: { apiKeyId: operation.keyId } })).rows.map((row) => [
        row.status,
        row.error,
      ]);
  }
}

if (process.argv[1]?.endsWith("key-ops.ts")) {
  const result = await run(JSON.parse(process.argv[2] ?? "{}") as KeyOp);
  console.log(JSON.stringify(result));
  await db().$disconnect();
}
