import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { DIRECT_ROUTES_HOOK, serveDirectly, type DirectDispatch } from "./direct-routes";

// The API routes served beside Next's router (lib/http/direct-routes.ts), on a real Node
// server that does what scripts/serve.mjs does: the direct routes first, else "Next" (here
// a stand-in answering 299). What the live server answers through both paths, compared
// request by request, is e2e/api/direct-routes.spec.ts.

let server: http.Server;
let base: string;

before(async () => {
  server = http.createServer((req, res) => {
    const direct = (globalThis as Record<symbol, unknown>)[DIRECT_ROUTES_HOOK] as DirectDispatch | undefined;
    if (typeof direct === "function" && direct(req, res)) return;
    res.statusCode = 299;
    res.end("next");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => new Promise<void>((resolve) => server.close(() => resolve())));

test("a registered POST gets the request as sent and answers with its own headers and the API's security headers", async () => {
  let seen: { method: string; url: string; accept: string | null; custom: string | null; body: string } | null = null;
  serveDirectly("POST", "/api/test/echo", async (request) => {
    seen = {
      method: request.method,
      url: request.url,
      accept: request.headers.get("accept"),
      custom: request.headers.get("x-custom"),
      body: await request.text(),
    };
    return new Response(JSON.stringify({ ok: true }), {
      status: 201,
      headers: { "Content-Type": "application/json", "X-Request-Id": "r-1" },
    });
  });
  const response = await fetch(`${base}/api/test/echo`, {
    method: "POST",
    headers: { Accept: "application/json", "X-Custom": "one", "Content-Type": "application/json" },
    body: '{"name":"Ada"}',
  });
  assert.equal(response.status, 201);
  assert.deepEqual(await response.json(), { ok: true });
  assert.deepEqual(seen, {
    method: "POST",
    url: `${base}/api/test/echo`,
    accept: "application/json",
    custom: "one",
    body: '{"name":"Ada"}',
  });
  assert.equal(response.headers.get("x-request-id"), "r-1");
  assert.equal(response.headers.get("content-type"), "application/json");
  assert.equal(response.headers.get("content-security-policy"), "default-src 'none'; frame-ancestors 'none'");
  assert.equal(response.headers.get("x-content-type-options"), "nosniff");
  assert.equal(response.headers.get("x-frame-options"), "DENY");
  assert.equal(response.headers.get("referrer-policy"), "same-origin");
  assert.equal(response.headers.get("cross-origin-opener-policy"), "same-origin");
  assert.equal(response.headers.get("permissions-policy"), "camera=(), microphone=(), geolocation=(), payment=()");
  assert.equal(response.headers.get("strict-transport-security"), null);
});

test("HSTS and an https URL only when X-Forwarded-Proto says https", async () => {
  const urls: string[] = [];
  serveDirectly("POST", "/api/test/proto", async (request) => {
    urls.push(request.url);
    return new Response(null, { status: 204 });
  });
  const https = await fetch(`${base}/api/test/proto`, { method: "POST", headers: { "X-Forwarded-Proto": "https" } });
  assert.equal(https.status, 204);
  assert.equal(https.headers.get("strict-transport-security"), "max-age=31536000; includeSubDomains");
  const plain = await fetch(`${base}/api/test/proto`, { method: "POST", headers: { "X-Forwarded-Proto": "http" } });
  assert.equal(plain.headers.get("strict-transport-security"), null);
  assert.deepEqual(
    urls.map((url) => new URL(url).protocol),
    ["https:", "http:"],
  );
});

test("another method, a query string or a trailing slash go to Next", async () => {
  serveDirectly("POST", "/api/test/only-post", async () => new Response("direct"));
  assert.equal(await (await fetch(`${base}/api/test/only-post`, { method: "POST" })).text(), "direct");
  for (const [method, path] of [
    ["GET", "/api/test/only-post"],
    ["PUT", "/api/test/only-post"],
    ["POST", "/api/test/only-post?via=next"],
    ["POST", "/api/test/only-post/"],
    ["POST", "/api/test/not-registered"],
  ]) {
    const response = await fetch(`${base}${path}`, { method });
    assert.equal(response.status, 299, `${method} ${path}`);
    assert.equal(await response.text(), "next");
  }
});

test("a dynamic segment is handed over as Next hands it; one that is not plain URL-safe text goes to Next", async () => {
  serveDirectly<{ token: string }>(
    "POST",
    "/api/test/hooks/[token]",
    async (_request, { params }) => new Response(`token ${(await params).token}`),
  );
  const direct = await fetch(`${base}/api/test/hooks/c_Abc-123_x.y~z`, { method: "POST" });
  assert.equal(await direct.text(), "token c_Abc-123_x.y~z");
  for (const path of [
    "/api/test/hooks/",
    "/api/test/hooks/a%20b",
    "/api/test/hooks/..",
    "/api/test/hooks/.hidden",
    "/api/test/hooks/a/b",
    "/api/test/hooks/a?x=1",
  ]) {
    const response = await fetch(`${base}${path}`, { method: "POST" });
    assert.equal(await response.text(), "next", path);
  }
});

test("a handler that throws gets the error envelope, not a dropped connection", async () => {
  serveDirectly("POST", "/api/test/throws", async () => {
    throw new Error("secret detail");
  });
  const response = await fetch(`${base}/api/test/throws`, { method: "POST" });
  assert.equal(response.status, 500);
  const body = (await response.json()) as { success: boolean; message: string };
  assert.equal(body.success, false);
  assert.ok(!JSON.stringify(body).includes("secret detail"));
  assert.equal(response.headers.get("x-content-type-options"), "nosniff");
});

test("a large body arrives whole, as a stream", async () => {
  serveDirectly("POST", "/api/test/digest", async (request) => {
    const bytes = new Uint8Array(await request.arrayBuffer());
    return new Response(createHash("sha256").update(bytes).digest("hex"));
  });
  const body = new Uint8Array(3 * 1024 * 1024 + 7).map((_, index) => (index * 31) % 251);
  const response = await fetch(`${base}/api/test/digest`, { method: "POST", body });
  assert.equal(await response.text(), createHash("sha256").update(body).digest("hex"));
});

/** Sends requests one after another on one kept-alive connection; their statuses and bodies. */
async function onOneConnection(requests: { path: string; body: Buffer }[]): Promise<{ status: number; body: string }[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const sockets = new Set<unknown>();
  try {
    const answers: { status: number; body: string }[] = [];
    for (const { path, body } of requests) {
      answers.push(
        await new Promise((resolve, reject) => {
          const req = http.request(`${base}${path}`, { method: "POST", agent, headers: { "Content-Length": body.length } }, (res) => {
            sockets.add(res.socket);
            let text = "";
            res.setEncoding("utf8");
            res.on("data", (chunk: string) => (text += chunk));
            res.on("end", () => resolve({ status: res.statusCode!, body: text }));
          });
          req.on("error", reject);
          req.end(body);
        }),
      );
    }
    assert.equal(sockets.size, 1, "every request went over the one connection");
    return answers;
  } finally {
    agent.destroy();
  }
}

test("a body the handler never reads is discarded after the answer, and the connection serves the next request", async () => {
  serveDirectly("POST", "/api/test/refuses", async () => new Response("refused", { status: 401 }));
  serveDirectly("POST", "/api/test/reads", async (request) => new Response(`read ${(await request.arrayBuffer()).byteLength}`));
  const answers = await onOneConnection([
    { path: "/api/test/refuses", body: Buffer.alloc(2 * 1024 * 1024, 1) },
    { path: "/api/test/reads", body: Buffer.alloc(10, 1) },
  ]);
  assert.deepEqual(answers, [
    { status: 401, body: "refused" },
    { status: 200, body: "read 10" },
  ]);
});

test("a body the handler stops reading still gets its answer before the connection closes", async () => {
  serveDirectly("POST", "/api/test/too-large", async (request) => {
    const reader = request.body!.getReader();
    await reader.read();
    await reader.cancel();
    return new Response("too large", { status: 413, headers: { Connection: "close" } });
  });
  const body = Buffer.alloc(4 * 1024 * 1024, 2);
  const answer = await new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
    const req = http.request(`${base}/api/test/too-large`, { method: "POST", headers: { "Content-Length": body.length } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, body: text, connection: res.headers.connection }));
    });
    req.on("error", reject);
    req.end(body);
  });
  assert.deepEqual(answer, { status: 413, body: "too large", connection: "close" });
});

test("every Set-Cookie of the answer is kept", async () => {
  serveDirectly("POST", "/api/test/cookies", async () => {
    const headers = new Headers();
    headers.append("Set-Cookie", "a=1; Path=/");
    headers.append("Set-Cookie", "b=2; Path=/");
    return new Response("ok", { headers });
  });
  const response = await fetch(`${base}/api/test/cookies`, { method: "POST" });
  assert.deepEqual(response.headers.getSetCookie(), ["a=1; Path=/", "b=2; Path=/"]);
});

test("web form routes cannot be served beside Next (their pages have their own policy)", () => {
  assert.throws(() => serveDirectly("POST", "/api/forms/abc", async () => new Response("x")), /Web form pages/);
});
