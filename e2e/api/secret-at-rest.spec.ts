import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { CREATE_LEAD } from "../support/fixtures";
import { readDatabase, startServer } from "../support/server-process";

// The secret is stored only as a digest and, until its first copy, as ciphertext
// (docs/security.md "Hardening"). After a copy, a dump of the whole database, the database files
// themselves and every log line of the server hold it nowhere. A server of this file's
// own, so that all of its output is captured.

test.describe.configure({ timeout: 180_000 });

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Every table, every row, as text: what `sqlite3 .dump` would show. */
function dumpDatabase(file: string): string {
  return readDatabase(file, (db) => {
    const tables = db.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'table'`).all() as { name: string; sql: string }[];
    return tables
      .map(({ name, sql }) => {
        const rows = db
          .prepare(`SELECT * FROM "${name.replaceAll('"', '""')}"`)
          .raw()
          .all();
        return `${sql};\n${rows.map((row) => JSON.stringify(row)).join("\n")}`;
      })
      .join("\n");
  });
}

/** Every file of the data folder (database, WAL, shared memory, key file) with its bytes. */
function dataFiles(dataDir: string): { name: string; bytes: Buffer }[] {
  return readdirSync(dataDir, { recursive: true, encoding: "utf8" }).flatMap((name) => {
    try {
      return [{ name, bytes: readFileSync(path.join(dataDir, name)) }];
    } catch {
      return []; // a folder
    }
  });
}

/**
 * A key generated as the web UI generates it (createApiKey without shownToOperator), in a
 * process on the server's database: its secret waits, encrypted, for the first copy. The
 * CLI's keys are born copied (their secret is printed once and never stored).
 */
function generateKey(dataDir: string, databaseFile: string): { keyId: string; secret: string } {
  const script = `
    import { createApiKey } from ${JSON.stringify(path.join(ROOT, "lib/api-keys/api-key-changes.ts"))};
    import { findTeamBySlug } from ${JSON.stringify(path.join(ROOT, "lib/teams/team-store.ts"))};
    const team = await findTeamBySlug("demo");
    console.log(JSON.stringify(await createApiKey({ teamId: team.id, description: "secret at rest" })));
    process.exit(0);
  `;
  return JSON.parse(
    execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "--eval", script], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: `file:${databaseFile}` },
      encoding: "utf8",
    }).trim(),
  ) as { keyId: string; secret: string };
}

/** Takes the first copy of a key's secret through lib/api-keys/api-key-changes.ts, in a process on the server's database. */
function copySecret(dataDir: string, databaseFile: string, keyId: string, secret: string): string {
  const script = `
    import { takeSecretForCopy } from ${JSON.stringify(path.join(ROOT, "lib/api-keys/api-key-changes.ts"))};
    import { findTeamBySlug } from ${JSON.stringify(path.join(ROOT, "lib/teams/team-store.ts"))};
    const team = await findTeamBySlug("demo");
    const copied = await takeSecretForCopy({ keyId: ${JSON.stringify(keyId)}, teamId: team.id, userId: null });
    // Only whether it matched is printed: this output is a test log too.
    console.log(copied === process.env.EXPECTED ? "copied" : "mismatch");
    process.exit(0);
  `;
  return execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "--eval", script], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: `file:${databaseFile}`, EXPECTED: secret },
    encoding: "utf8",
  }).trim();
}

test("after a copy, the database dump, its files and all server logs hold the secret nowhere", { tag: "@own-server" }, async () => {
  const server = await startServer({ env: { AUTH_FAILURES_PER_IP: "1000" } });
  try {
    const { keyId, secret } = generateKey(server.dataDir, server.databaseFile);
    expect(secret).toMatch(/^team_[0-9A-Za-z]{30,}$/);

    // Before the copy the secret is recoverable, but only as ciphertext.
    expect(dumpDatabase(server.databaseFile)).not.toContain(secret);
    const ciphertext = readDatabase(
      server.databaseFile,
      (db) => (db.prepare(`SELECT "ciphertext" FROM "PendingSecret" WHERE "apiKeyId" = ?`).get(keyId) as { ciphertext: string }).ciphertext,
    );
    expect(copySecret(server.dataDir, server.databaseFile, keyId, secret)).toBe("copied");
    // A copy of the data folder taken now, with the server running (its WAL not yet
    // checkpointed by a stop), holds neither the secret nor its ciphertext: with the key
    // file beside the database, the ciphertext would be as good as the secret.
    for (const file of dataFiles(server.dataDir)) {
      expect(file.bytes.includes(Buffer.from(secret, "utf8")), `${file.name} holds the secret`).toBe(false);
      expect(file.bytes.includes(Buffer.from(ciphertext, "utf8")), `${file.name} holds the ciphertext`).toBe(false);
    }

    // Use the key every way a log line could pick the secret up: success, idempotent
    // replay, wrong secret, the secret in the wrong header, in cookies and Authorization.
    const post = (headers: Record<string, string>) =>
      fetch(`${server.url}${CREATE_LEAD}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body: JSON.stringify({ name: "Secret Keeper" }),
      });
    const auth = { "X-API-Key": keyId, "X-API-Secret": secret };
    expect((await post(auth)).status).toBe(201);
    expect((await post({ ...auth, "Idempotency-Key": "secret-check-1" })).status).toBe(201);
    expect((await post({ ...auth, "Idempotency-Key": "secret-check-1" })).status).toBe(201);
    expect((await post({ ...auth, "X-API-Secret": `${secret}x` })).status).toBe(401);
    expect((await post({ "X-API-Key": secret, "X-API-Secret": secret })).status).toBe(401);
    expect((await post({ ...auth, Cookie: `next-auth.session-token=${secret}`, Authorization: `Bearer ${secret}` })).status).toBe(201);
    expect((await post({ "X-API-Key": keyId })).status).toBe(401);
    // A failure that is logged as an error path: an unsupported body.
    expect(
      (await fetch(`${server.url}${CREATE_LEAD}`, { method: "POST", headers: { ...auth, "Content-Type": "text/plain" } })).status,
    ).toBe(415);

    // A graceful stop checkpoints the WAL into the main file; the -wal file is grepped too.
    await server.stop();

    const dump = dumpDatabase(server.databaseFile);
    expect(dump).toContain(keyId);
    expect(dump).toContain("api_key.secret_copied");
    expect(dump).not.toContain(secret);

    const files = dataFiles(server.dataDir);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      expect(file.bytes.includes(Buffer.from(secret, "utf8")), `${file.name} holds the secret`).toBe(false);
      expect(file.bytes.includes(Buffer.from(ciphertext, "utf8")), `${file.name} holds the ciphertext`).toBe(false);
    }

    const logs = server.output();
    expect(logs).toContain('"event":"auth.failed"');
    expect(logs).not.toContain(secret);
    // Not even the random part without its prefix.
    expect(logs).not.toContain(secret.slice("team_".length));
  } finally {
    server.kill();
  }
});
