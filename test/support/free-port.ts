import net from "node:net";

// Every test server (app, PostgreSQL, Redis, container) takes its port from here, so no
// caller can pick one that fetch() refuses.

/**
 * The ports fetch() refuses to connect to ("bad port", the Fetch standard's port blocking
 * list, which Node's fetch applies). A server started on one serves, yet every probe fails
 * with "bad port": a CI run lost its durability test to 5060 (SIP), and another its
 * two-container test to 6665 (IRC). The whole list, so that a changed range stays safe.
 */
export const FETCH_BLOCKED_PORTS: ReadonlySet<number> = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117,
  119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636,
  989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/**
 * A free TCP port on 127.0.0.1 within [from, to], tried in random order (several test runs
 * share these machines), never one of FETCH_BLOCKED_PORTS nor one in `except`.
 */
export async function freePort(range: { from: number; to: number }, except: readonly number[] = []): Promise<number> {
  const span = range.to - range.from + 1;
  const start = Math.floor(Math.random() * span);
  for (let i = 0; i < span; i++) {
    const port = range.from + ((start + i) % span);
    if (FETCH_BLOCKED_PORTS.has(port) || except.includes(port)) continue;
    if (await isPortFree(port)) return port;
  }
  throw new Error(`No free port between ${range.from} and ${range.to} that fetch() may connect to`);
}
