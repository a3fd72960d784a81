import net from "node:net";
import { expect, test } from "@playwright/test";
import { createApiKey, deleteApiKey } from "../../lib/api-keys/api-key-changes";
import { BASE_URL, CREATE_LEAD, authHeaders, newTeamWithKey } from "../support/fixtures";

// Response headers of the shared server: security headers everywhere, no CORS, request
// ids, and failed authentications that cannot be told apart.

function expectSecurityHeaders(headers: Headers, csp: RegExp): void {
  expect(headers.get("content-security-policy")).toMatch(csp);
  expect(headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  expect(headers.get("x-content-type-options")).toBe("nosniff");
  expect(headers.get("referrer-policy")).toBe("same-origin");
  expect(headers.get("x-frame-options")).toBe("DENY");
  // Plain http here, and no trusted proxy: a client's own X-Forwarded-Proto changes nothing.
  expect(headers.get("strict-transport-security")).toBeNull();
}

test("pages, the API and its errors all carry the security headers; no HSTS over http", async () => {
  const { key } = await newTeamWithKey();
  const page = await fetch(`${BASE_URL}/`, { headers: { "X-Forwarded-Proto": "https" } });
  expect(page.status).toBe(200);
  // Scripts by nonce only (e2e/ui/content-security-policy.spec.ts), never 'unsafe-inline'.
  expectSecurityHeaders(page.headers, /script-src 'self' 'nonce-[A-Za-z0-9+/=]+';/);
  expect(page.headers.get("content-security-policy")).toContain("object-src 'none'");

  const notFound = await fetch(`${BASE_URL}/no-such-page`);
  expect(notFound.status).toBe(404);
  expectSecurityHeaders(notFound.headers, /default-src 'self'/);

  const created = await fetch(`${BASE_URL}${CREATE_LEAD}`, {
    method: "POST",
    headers: { ...authHeaders(key), "Content-Type": "application/json", "X-Forwarded-Proto": "https" },
    body: JSON.stringify({ name: "Header Check" }),
  });
  expect(created.status).toBe(201);
  expectSecurityHeaders(created.headers, /^default-src 'none'; frame-ancestors 'none'$/);

  const refused = await fetch(`${BASE_URL}${CREATE_LEAD}`, { method: "POST" });
  expect(refused.status).toBe(401);
  expectSecurityHeaders(refused.headers, /^default-src 'none'/);

  const openapi = await fetch(`${BASE_URL}/api/openapi.json`);
  expectSecurityHeaders(openapi.headers, /^default-src 'none'/);
});

test("no CORS: a cross-origin POST gets no Access-Control headers and a preflight is refused", async () => {
  const { key } = await newTeamWithKey();
  const origin = "https://evil.example";
  const post = await fetch(`${BASE_URL}${CREATE_LEAD}`, {
    method: "POST",
    headers: { ...authHeaders(key), "Content-Type": "application/json", Origin: origin },
    body: JSON.stringify({ name: "Cross Origin" }),
  });
  const preflight = await fetch(`${BASE_URL}${CREATE_LEAD}`, {
    method: "OPTIONS",
    headers: { Origin: origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "x-api-key, x-api-secret" },
  });
  expect(preflight.status).toBe(405);
  for (const res of [post, preflight]) {
    const corsHeaders = [...res.headers.keys()].filter((name) => name.startsWith("access-control-"));
    expect(corsHeaders).toEqual([]);
  }
});

test("every response of the endpoint carries X-Request-Id; a safe one sent by the caller is echoed", async () => {
  const mine = await fetch(`${BASE_URL}${CREATE_LEAD}`, { method: "POST", headers: { "X-Request-Id": "proxy-req-0001" } });
  expect(mine.headers.get("x-request-id")).toBe("proxy-req-0001");
  const fresh = await fetch(`${BASE_URL}${CREATE_LEAD}`, { method: "GET" });
  expect(fresh.status).toBe(405);
  expect(fresh.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
});

/** The complete response, byte for byte, without its Date line. */
function rawExchange(headers: Record<string, string>, body: string): Promise<string> {
  const url = new URL(BASE_URL);
  const head = [
    `POST ${CREATE_LEAD} HTTP/1.1`,
    `Host: ${url.host}`,
    "Connection: close",
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ].join("\r\n");
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("end", () =>
      resolve(
        Buffer.concat(chunks)
          .toString("latin1")
          .replace(/^Date: .*\r\n/im, ""),
      ),
    );
    // write, not end: a client that half-closes before the answer may get none (the
    // server closes after its response anyway, as asked by "Connection: close").
    socket.write(`${head}\r\n\r\n${body}`);
  });
}

test("unknown key, wrong secret and deleted key get byte-identical responses", async () => {
  const { team, key } = await newTeamWithKey();
  const doomed = await createApiKey({ teamId: team.id });
  expect(await deleteApiKey({ keyId: doomed.keyId, teamId: team.id })).toBe(true);
  const body = JSON.stringify({ name: "Nobody" });
  const same = { "X-Request-Id": "identical-check-01" };

  const unknown = await rawExchange({ ...same, "X-API-Key": "0123456789abcdef0123", "X-API-Secret": key.secret }, body);
  const wrongSecret = await rawExchange({ ...same, "X-API-Key": key.keyId, "X-API-Secret": `${key.secret.slice(0, -1)}x` }, body);
  const deleted = await rawExchange({ ...same, ...authHeaders(doomed) }, body);

  expect(unknown).toMatch(/^HTTP\/1\.1 401 Unauthorized\r\n/);
  expect(unknown).toContain('{"success":false,"error":"Invalid API key","message":"Authentication failed"}');
  expect(wrongSecret).toBe(unknown);
  expect(deleted).toBe(unknown);
});
