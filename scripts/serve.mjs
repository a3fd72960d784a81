// @ts-check
// The production HTTP server that scripts/start.ts runs: Next's own request handler
// (the same one `next start` uses) behind a plain Node http server, for two things
// `next start` cannot do (docs/operations.md "Abuse limits, Redis and proxies"):
//
// 1. The client address. A Next route handler never sees the socket, and `next start`
//    fills X-Forwarded-For with the peer address only when the client sent none, so a
//    client could pick its own address. Here the peer address is always put last in
//    X-Forwarded-For; with no trusted proxy (--trust-proxy-hops 0) the client's own
//    forwarded headers are dropped first. lib/http/request-context.ts reads it back.
//    The peer address alone is also put in X-Lead-Intake-Peer (replacing a client's own),
//    for the checks that must never trust a proxy's header (the bench's limit route).
// 2. The API routes served beside Next's router (lib/http/direct-routes.ts): once a route
//    registered itself there, its requests go to its handler without Next's routing.
// 3. Draining on SIGTERM/SIGINT with a deadline: stop accepting, let in-flight requests
//    finish, close keep-alive connections as soon as they are idle (so the process does
//    not wait out their timeout), and cut what is left after the grace period.
//
// Usage: node scripts/serve.mjs --port 3000 --hostname 0.0.0.0 --trust-proxy-hops 0 --grace-seconds 8
import http from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import next from "next";
import { ignoreBrokenPipes } from "./broken-pipes.mjs";

// A log reader that went away must not make the server spin (scripts/broken-pipes.mjs).
ignoreBrokenPipes();

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "3000" },
    hostname: { type: "string", default: "0.0.0.0" },
    "trust-proxy-hops": { type: "string", default: "0" },
    "grace-seconds": { type: "string", default: "8" },
  },
});
const port = Number(values.port);
const hostname = String(values.hostname);
const trustedHops = Number(values["trust-proxy-hops"]);
const graceMs = Number(values["grace-seconds"]) * 1000;
const ROOT = path.resolve(import.meta.dirname, "..");

/** @param {unknown} event @param {Record<string, unknown>} fields */
function log(event, fields = {}) {
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: "info", event, ...fields })}\n`);
}

/** @param {http.IncomingMessage} req */
function stampForwardedHeaders(req) {
  const peer = req.socket.remoteAddress ?? "unknown";
  // lib/http/request-context.ts PEER_HEADER: assigned, so a client's header of that name is gone.
  req.headers["x-lead-intake-peer"] = peer;
  const encrypted = "encrypted" in req.socket && req.socket.encrypted === true;
  if (trustedHops === 0) {
    req.headers["x-forwarded-for"] = peer;
    req.headers["x-forwarded-proto"] = encrypted ? "https" : "http";
    req.headers["x-forwarded-host"] = req.headers.host ?? hostname;
    delete req.headers["x-forwarded-port"];
    delete req.headers["forwarded"];
    return;
  }
  const sent = req.headers["x-forwarded-for"];
  const chain = Array.isArray(sent) ? sent.join(", ") : sent;
  req.headers["x-forwarded-for"] = chain ? `${chain}, ${peer}` : peer;
}

// lib/http/direct-routes.ts DIRECT_ROUTES_HOOK.
const DIRECT_ROUTES_HOOK = Symbol.for("lead-intake.direct-routes");

const app = next({ dev: false, dir: ROOT, hostname, port });
await app.prepare();
const handle = app.getRequestHandler();

let shuttingDown = false;
/** @type {Set<http.ServerResponse>} */
const inFlight = new Set();

const server = http.createServer((req, res) => {
  stampForwardedHeaders(req);
  inFlight.add(res);
  if (shuttingDown) res.setHeader("Connection", "close");
  res.on("close", () => {
    inFlight.delete(res);
    if (shuttingDown) setImmediate(() => server.closeIdleConnections());
  });
  const direct = /** @type {((req: http.IncomingMessage, res: http.ServerResponse) => boolean) | undefined} */ (
    globalThis[DIRECT_ROUTES_HOOK]
  );
  if (typeof direct === "function" && direct(req, res)) return;
  handle(req, res).catch((error) => {
    log("server.error", { error: error instanceof Error ? error.name : typeof error });
    if (!res.headersSent) {
      res.statusCode = 500;
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify({ success: false, error: "Internal server error", message: "Server error" }));
    } else {
      res.destroy();
    }
  });
});

// Idle keep-alive connections stay open longer than a load balancer's usual idle
// timeout (60 s): when the server closes first, a request the client or proxy sends on
// the closing connection fails ("other side closed", a 502 behind a proxy). Node's 5 s
// default made exactly that happen to clients pausing a few seconds between requests.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

server.on("error", (error) => {
  console.error(`Failed to start the server on ${hostname}:${port}: ${error.message}`);
  process.exit(1);
});
server.listen(port, hostname, () => log("server.listening", { hostname, port, trust_proxy_hops: trustedHops }));

/** @param {NodeJS.Signals} signal */
function shutdown(signal) {
  if (shuttingDown) return;
  shuttingDown = true;
  log("server.draining", { signal, in_flight: inFlight.size, grace_seconds: graceMs / 1000 });
  for (const res of inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
  // The outbox dispatcher (lib/startup/dispatchers.ts) stops claiming now and finishes
  // the deliveries under way within the same grace period.
  const drain = /** @type {((ms: number) => Promise<void>) | undefined} */ (globalThis[Symbol.for("lead-intake.drain")]);
  const drained = typeof drain === "function" ? drain(graceMs).catch(() => undefined) : Promise.resolve();
  const deadline = setTimeout(() => {
    log("server.grace_expired", { in_flight: inFlight.size });
    server.closeAllConnections();
  }, graceMs);
  deadline.unref();
  server.close(async () => {
    clearTimeout(deadline);
    await app.close().catch(() => undefined);
    await drained;
    log("server.stopped", { signal });
    process.exit(0);
  });
  server.closeIdleConnections();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
