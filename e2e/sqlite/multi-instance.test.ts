import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { db } from "../../lib/db/client";
import { startInstance, startSqliteDeployment, type Instances } from "../support/app-instances";
import { REVOCATIONS, revocationTitle, revokedOnBothInstances } from "../support/key-revocation";
import { burstOfOnePerson, BURST_TITLE } from "../support/repeat-burst";

// Two `next start` processes on two ports against one SQLite file, as two `npm start` on one
// machine: a person's submissions are serialised by the database's write lock, which the
// lead's transaction holds while it reads the match (docs/leads.md "At the same moment"); a
// key both have cached stops working on each at once (lib/api-keys/key-cache.ts).
// The PostgreSQL twin, with the rest of the multi-instance tests, is e2e/postgres/.

let deployment: Instances;
const clockDir = mkdtempSync(path.join(os.tmpdir(), "lead-intake-clock-"));
const clockFile = path.join(clockDir, "now");

before(async () => {
  deployment = await startSqliteDeployment({ count: 2, env: { LEAD_INTAKE_TEST_CLOCK_FILE: clockFile } });
});

after(async () => {
  await db().$disconnect();
  await deployment?.stop();
  rmSync(clockDir, { recursive: true, force: true });
});

const instances = () => deployment.instances as [Instances["instances"][number], Instances["instances"][number]];

test(BURST_TITLE, async () => {
  await burstOfOnePerson(...instances());
});

for (const revocation of REVOCATIONS) {
  test(revocationTitle(revocation), () => revokedOnBothInstances(...instances(), revocation, clockFile));
}

test("an instance whose port another process took first fails to start, and never takes that process's answers for its own", async () => {
  // What two test stages side by side did once: both picked a free port, the other listened
  // first, and this instance's readiness probe got the other's /api/ping.
  const squatter = http.createServer((_req, res) => res.writeHead(200).end('{"ok":true}'));
  await new Promise<void>((resolve) => squatter.listen(0, "127.0.0.1", resolve));
  const { port } = squatter.address() as { port: number };
  try {
    // Stopped at once if it ever starts: the assertion then fails without leaving it running.
    const started = startInstance({ name: "C", env: deployment.sharedEnv, port }).then((instance) => instance.stop());
    await assert.rejects(started, /C exited \(\d+\) while starting:[\s\S]*EADDRINUSE/);
  } finally {
    squatter.close();
  }
});
