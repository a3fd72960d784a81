// The breakdown's run (docs/performance.md "Where a create's CPU goes"): a server of its own
// under node --cpu-prof, warmed up, then one window of create_lead load; the profile's
// samples inside the window, by stage, against the kernel's count of the same window.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { breakdown, type Breakdown, type CpuProfile } from "./create-breakdown";
import { measure, warmUp, type LoadRequest, type LoadResult } from "./load";
import { startServer, threadCpuSeconds } from "./server";

/** µs of the monotonic clock, the one V8 stamps profile samples with on Linux. */
const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

export async function measureBreakdown(options: {
  port: number;
  dataDir: string;
  databaseUrl: string;
  request: LoadRequest;
  connections: number;
  duration: number;
  warmup: number;
}): Promise<{ breakdown: Breakdown; result: LoadResult }> {
  const profileDir = mkdtempSync(path.join(os.tmpdir(), "bench-profile-"));
  try {
    const server = await startServer({
      port: options.port,
      dataDir: options.dataDir,
      databaseUrl: options.databaseUrl,
      logFile: path.join(options.dataDir, "server-profiled.log"),
      profileDir,
      profileIntervalMicros: 500,
    });
    let window: { fromMicros: number; toMicros: number };
    let kernel: { mainThreadMicros: number; processMicros: number };
    let result: LoadResult;
    try {
      await warmUp(server.baseUrl, options.request, options.connections, 3 * options.warmup);
      const before = threadCpuSeconds(server.pid);
      const fromMicros = monotonicMicros();
      result = await measure(server, options.request, { connections: options.connections, duration: options.duration, warmup: 0 });
      const toMicros = monotonicMicros();
      const after = threadCpuSeconds(server.pid);
      window = { fromMicros, toMicros };
      kernel = { mainThreadMicros: (after.mainThread - before.mainThread) * 1e6, processMicros: (after.process - before.process) * 1e6 };
    } finally {
      await server.stop();
    }
    const file = readdirSync(profileDir).find((name) => name.endsWith(".cpuprofile"));
    if (!file) throw new Error(`The profiled server wrote no profile in ${profileDir}`);
    const profile = JSON.parse(readFileSync(path.join(profileDir, file), "utf8")) as CpuProfile;
    return { breakdown: breakdown(profile, window, result.requests, kernel), result };
  } finally {
    rmSync(profileDir, { recursive: true, force: true });
  }
}
