// @ts-check
// Reproduces docs/performance.md's "p99 at 64 connections is the accept queue" note without the app:
// a bare Node http server (child process) that burns BURN_MS of CPU per request, loaded by
// autocannon at 64 connections. Prints the latency percentiles and, per connection, how
// long its first response took: under saturation the connections opened at the start wait
// in the kernel's accept queue and are served one per round.
// Usage: node scripts/bench/accept-queue.mjs [burnMs=5] [connections=64] [seconds=10]
import { spawn } from "node:child_process";
import autocannon from "autocannon";

const [burnMs = 5, connections = 64, seconds = 10] = process.argv.slice(2).map(Number);
const port = 6390;
const serverSource = `
  require("node:http").createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const until = performance.now() + ${burnMs};
      while (performance.now() < until);
      res.setHeader("Content-Type", "application/json");
      res.end('{"ok":true}');
    });
  }).listen(${port}, "127.0.0.1", () => process.stdout.write("ready\\n"));`;
const server = spawn(process.execPath, ["-e", serverSource], { stdio: ["ignore", "pipe", "inherit"] });
await new Promise((resolve) => server.stdout.once("data", resolve));

/** @type {Map<unknown, number>} first response time (ms) per connection */
const firstResponse = new Map();
const instance = autocannon({ url: `http://127.0.0.1:${port}/`, connections, duration: seconds });
instance.on("response", (client, _status, _bytes, time) => {
  if (!firstResponse.has(client)) firstResponse.set(client, time);
});
const result = await instance;
server.kill();

const late = [...firstResponse.values()].filter((ms) => ms > 1000).length;
console.log(
  `bare Node http, ${burnMs} ms CPU per request, ${connections} connections, ${seconds} s: ` +
    `${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
    `max ${result.latency.max} ms, timeouts ${result.timeouts}; ` +
    `${late} connection(s) got their first response after more than 1 s, ` +
    `${connections - firstResponse.size} never got one`,
);
