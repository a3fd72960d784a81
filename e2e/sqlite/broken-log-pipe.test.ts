import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { after, before, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { startSqliteDeployment, CREATE_LEAD, type Instances } from "../support/app-instances";

// `npm start` whose log reader goes away (`npm start | tee app.log` with tee stopped, a log
// collector restarted): its stdout and stderr become broken pipes. The server goes on serving,
// the lines written from then on are lost, and nothing spins: before scripts/broken-pipes.mjs,
// the first write's EPIPE was an uncaught exception that was reported on stderr, which failed
// again, and the server ran at 100 % CPU until it was killed.

let deployment: Instances;
before(async () => {
  deployment = await startSqliteDeployment({ count: 1 });
});
after(() => deployment?.stop());

/** The CPU seconds (user and system) of every process in the process group `group`, from /proc. */
function groupCpuSeconds(group: number): number {
  const ticks = 100; // USER_HZ: 100 on Linux's every architecture the tests run on
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // the process ended meanwhile
    }
    // The command name may hold spaces and parentheses: the fields start after its last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) !== group) continue; // pgrp
    total += (Number(fields[11]) + Number(fields[12])) / ticks; // utime, stime
  }
  return total;
}

test("with its log pipes closed, the server answers, logs nothing it cannot, and stays idle", async () => {
  const [instance] = deployment.instances;
  instance!.closeOutput();
  // A refused create writes a warning on stderr (auth.failed), a ping writes nothing: both must still be answered.
  const refused = await fetch(`${instance!.baseUrl}${CREATE_LEAD}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "team_nope", "x-api-secret": "nope" },
    body: JSON.stringify({ name: "Broken Pipe" }),
  });
  assert.equal(refused.status, 401);
  await sleep(500);
  const before = groupCpuSeconds(instance!.pid);
  await sleep(3_000);
  const spent = groupCpuSeconds(instance!.pid) - before;
  assert.ok(spent < 1, `the instance's processes used ${spent.toFixed(2)} s of CPU in 3 idle seconds`);
  const ping = await fetch(`${instance!.baseUrl}/api/ping`);
  assert.equal(ping.status, 200);
  const again = await fetch(`${instance!.baseUrl}${CREATE_LEAD}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "team_nope", "x-api-secret": "nope" },
    body: JSON.stringify({ name: "Broken Pipe" }),
  });
  assert.equal(again.status, 401);
});
