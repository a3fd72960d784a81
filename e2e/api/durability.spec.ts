import http from "node:http";
import { expect, test } from "@playwright/test";
import { CREATE_LEAD } from "../support/fixtures";
import { demoKey, readDatabase, rssMiB, startServer, type ServerProcess } from "../support/server-process";

// Durability on servers of this file's own (docs/security.md "Hardening"): many writers on one
// SQLite file, a crash under load, a graceful stop, memory under huge bodies.

test.describe.configure({ mode: "serial", timeout: 240_000 });

type Key = { keyId: string; secret: string };
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** A POST over node:http (no client-side limit on concurrent sockets). */
function postLead(url: string, key: Key, name: string): Promise<{ status: number; body: string }> {
  const body = JSON.stringify({ name });
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}${CREATE_LEAD}`, {
      method: "POST",
      agent,
      headers: {
        "X-API-Key": key.keyId,
        "X-API-Secret": key.secret,
        "Content-Type": "application/json",
        "Content-Length": Buffer.byteLength(body),
      },
    });
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

function leadNames(file: string, prefix: string): Map<string, string> {
  return readDatabase(file, (db) => {
    const rows = db.prepare(`SELECT id, firstName FROM "Lead" WHERE firstName LIKE ?`).all(`${prefix}%`) as {
      id: string;
      firstName: string;
    }[];
    return new Map(rows.map((row) => [row.id, row.firstName]));
  });
}

test.describe("SQLite under concurrent writers", { tag: "@own-server" }, () => {
  let servers: ServerProcess[] = [];
  test.beforeAll(async () => {
    test.setTimeout(180_000); // hooks do not take describe.configure's timeout; servers start slowly on a busy machine
    const first = await startServer({ env: { RATE_LIMIT_PER_KEY: "100000" } });
    const second = await startServer({ env: { RATE_LIMIT_PER_KEY: "100000" }, dataDir: first.dataDir });
    servers = [first, second];
  });
  test.afterAll(async () => Promise.all(servers.map((server) => server.stop())));

  test("200 concurrent writers in two processes on one database file: 200 × 201, never 'database is locked'", async () => {
    const key = demoKey(servers[0]!);
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => postLead(servers[i % 2]!.url, key, `writer${i}`)));
    const failures = results.filter((r) => r.status !== 201);
    expect(failures, JSON.stringify(failures.slice(0, 3))).toEqual([]);
    const ids = results.map((r) => JSON.parse(r.body).lead_id as string);
    expect(new Set(ids).size).toBe(200);
    expect(leadNames(servers[0]!.databaseFile, "writer").size).toBe(200);
    for (const server of servers) expect(server.output()).not.toMatch(/database is locked|SQLITE_BUSY|db\.unavailable/);
  });
});

test.describe("crash, restart and graceful stop", { tag: "@own-server" }, () => {
  let server: ServerProcess;
  test.afterAll(async () => server?.stop());

  test("SIGKILL under load loses no lead that was acknowledged with 201", async () => {
    server = await startServer({ env: { RATE_LIMIT_PER_KEY: "100000" } });
    const key = demoKey(server);
    const acknowledged = new Map<string, string>();
    let sent = 0;
    let refused = 0;
    let killed = false;

    // Eight clients post as fast as they can; the server is killed once 300 leads are in.
    const client = async (n: number) => {
      for (let i = 0; !killed && i < 2_000; i++) {
        const name = `crash${n}x${i}`;
        sent++;
        try {
          const res = await postLead(server.url, key, name);
          if (res.status === 201) acknowledged.set(JSON.parse(res.body).lead_id, name);
        } catch {
          refused++;
        }
        if (acknowledged.size >= 300 && !killed) {
          killed = true;
          server.kill();
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, n) => client(n)));
    await server.exited;
    expect(killed).toBe(true);

    const dataDir = server.dataDir;
    server = await startServer({ dataDir, env: { RATE_LIMIT_PER_KEY: "100000" } });
    const stored = leadNames(server.databaseFile, "crash");
    const missing = [...acknowledged].filter(([id, name]) => stored.get(id) !== name);
    test.info().annotations.push({
      type: "crash",
      description: `sent ${sent}, acknowledged ${acknowledged.size}, failed in flight ${refused}, stored ${stored.size}`,
    });
    expect(missing).toEqual([]);
    expect(stored.size).toBeGreaterThanOrEqual(acknowledged.size);
    // The restarted server works and continues the sequence.
    expect((await postLead(server.url, key, "after-crash")).status).toBe(201);
  });

  test("SIGTERM drains in-flight requests, refuses new connections, and exits promptly", async () => {
    const key = demoKey(server);
    const body = JSON.stringify({ name: "drain" });
    // Three requests are in flight: headers and half a body sent, the rest after SIGTERM.
    // "Expect: 100-continue" makes the server answer "100 Continue" as it hands the
    // request to its handler, so the test knows each one is in flight (no sleeping).
    const inFlight = Array.from({ length: 3 }, () => {
      const req = http.request(`${server.url}${CREATE_LEAD}`, {
        method: "POST",
        headers: {
          "X-API-Key": key.keyId,
          "X-API-Secret": key.secret,
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(body),
          Expect: "100-continue",
        },
      });
      req.flushHeaders();
      const started = new Promise<void>((resolve) => req.once("continue", () => req.write(body.slice(0, 6), () => resolve())));
      const response = new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        req.on("response", (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
        });
        req.on("error", reject);
      });
      return { req, started, response };
    });
    await Promise.all(inFlight.map((r) => r.started));

    const stoppedAt = Date.now();
    server.signal("SIGTERM");
    await expect
      .poll(async () =>
        fetch(`${server.url}/api/ping`).then(
          () => "served",
          (error: Error) => String(error.cause ?? error),
        ),
      )
      .toMatch(/ECONNREFUSED/);
    for (const { req } of inFlight) req.end(body.slice(6));

    const results = await Promise.all(inFlight.map((r) => r.response));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
    // Told to close, so the process need not wait out keep-alive timeouts.
    expect(results.map((r) => r.connection)).toEqual(["close", "close", "close"]);
    const exit = await server.exited;
    expect(exit.code).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(5_000);
    const draining = /"event":"server.draining","signal":"SIGTERM","in_flight":(\d+)/.exec(server.output());
    expect(Number(draining?.[1])).toBeGreaterThanOrEqual(3);
    expect(server.output()).toContain('"event":"server.stopped"');
  });
});

test.describe("memory under huge bodies", { tag: "@own-server" }, () => {
  let server: ServerProcess;
  test.beforeAll(async () => {
    test.setTimeout(180_000); // hooks do not take describe.configure's timeout; servers start slowly on a busy machine
    server = await startServer({ env: { RATE_LIMIT_PER_KEY: "100000" } });
  });
  test.afterAll(async () => server?.stop());

  /**
   * Streams `megabytes` of body with chunked encoding (no Content-Length) until the server
   * answers. Status 0: the server closed the connection while this client was still
   * writing, and the client saw the broken pipe before it read the 413 (TCP gives no order
   * between the two once the server stops reading).
   */
  function streamHugeBody(key: Key, megabytes: number): Promise<{ status: number; sentMiB: number; connection?: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request(`${server.url}${CREATE_LEAD}`, {
        method: "POST",
        headers: { "X-API-Key": key.keyId, "X-API-Secret": key.secret, "Content-Type": "application/json" },
      });
      const chunk = Buffer.alloc(64 * 1024, "a");
      let sent = 0;
      let answered = false;
      req.on("response", (res) => {
        answered = true;
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, sentMiB: sent / 2 ** 20, connection: res.headers.connection }));
      });
      req.on("error", (error: NodeJS.ErrnoException) => {
        if (answered) return;
        answered = true;
        if (error.code === "EPIPE" || error.code === "ECONNRESET") resolve({ status: 0, sentMiB: sent / 2 ** 20 });
        else reject(error);
      });
      const pump = () => {
        while (!answered && sent < megabytes * 2 ** 20) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
        if (!answered) req.end();
      };
      req.write("{");
      pump();
    });
  }

  test("chunked bodies of 256 MiB without Content-Length: refused early (413, connection closed), server memory stays flat", async () => {
    const key = demoKey(server);
    const pid = server.serverPid();
    // Warm up the route so that first-use allocations are not counted.
    for (let i = 0; i < 3; i++) await postLead(server.url, key, `warm${i}`);
    const before = rssMiB(pid);
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await streamHugeBody(key, 256));
    const after = rssMiB(pid);
    test.info().annotations.push({
      type: "rss",
      description: `server RSS before ${before.toFixed(1)} MiB, after 5 × 256 MiB bodies ${after.toFixed(1)} MiB; client had sent ${results
        .map((r) => r.sentMiB.toFixed(1))
        .join(", ")} MiB when answered; statuses ${results.map((r) => r.status || "cut").join(", ")}`,
    });
    for (const result of results) {
      if (result.status !== 0) {
        expect(result.status).toBe(413);
        expect(result.connection).toBe("close");
      }
      // Either way the server stopped reading long before the body ended.
      expect(result.sentMiB).toBeLessThan(64);
    }
    expect(after - before).toBeLessThan(48);
    expect((await postLead(server.url, key, "still-serving")).status).toBe(201);
  });
});
