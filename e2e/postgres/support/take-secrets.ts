// Child process of multi-instance.test.ts: prints "ready" once its connection pool is
// open, waits for "go" on stdin, then tries to take the secret of every given key at
// once and prints what it got as JSON, with the time window of its attempts.
// Runs with DATABASE_URL and SECRET_ENCRYPTION_KEY of the deployment under test.
import { once } from "node:events";
import { takeSecretForCopy } from "../../../lib/api-keys/api-key-changes";
import { db } from "../../../lib/db/client";

const [teamId, ...keyIds] = process.argv.slice(2);
if (!teamId || !keyIds.length) throw new Error("usage: take-secrets.ts <teamId> <keyId>…");

// Warm the pool, so the race is between queries, not connection set-up.
await Promise.all(Array.from({ length: 5 }, () => db().apiKey.count({ where: { teamId } })));
console.log("ready");
await once(process.stdin, "data");
const startedAt = Date.now();
const secrets = await Promise.all(keyIds.map((keyId) => takeSecretForCopy({ keyId, teamId, userId: null })));
const finishedAt = Date.now();
console.log(JSON.stringify({ startedAt, finishedAt, secrets: Object.fromEntries(keyIds.map((keyId, i) => [keyId, secrets[i]])) }));
await db().$disconnect();
process.stdin.destroy();
