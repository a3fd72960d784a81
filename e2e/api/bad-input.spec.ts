import { readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { expect, test } from "@playwright/test";
import fc from "fast-check";
import { countLeads, findLead } from "../../lib/leads/lead-store";
import { BASE_URL as baseURL, CREATE_LEAD, authHeaders, newTeamWithKey } from "../support/fixtures";

// Bad input over real HTTP against `next start`: the corpus (e2e/api/bad-input-corpus.json,
// one case per entry) and fast-check properties. Every request gets a 4xx envelope or a
// correct 201; never a 5xx, never a partial row, and the server keeps serving.

type Expect = { status: number; error?: string; message?: string };
type Case = {
  title: string;
  contentType?: string;
  headers?: Record<string, string>;
  body?: string;
  bodyBase64?: string;
  bodyRepeat?: { prefix: string; unit: string; times: number; separator: string; suffix: string };
  expect: Expect;
  stored?: Record<string, unknown>;
  requestId?: "generated";
};
type RawCase = { title: string; request: string; expectStatus: (number | null)[]; endAfterWrite?: boolean };

const corpus = JSON.parse(readFileSync(path.join(import.meta.dirname, "bad-input-corpus.json"), "utf8")) as {
  cases: Case[];
  raw: RawCase[];
};

function bodyOf(entry: Case): Uint8Array<ArrayBuffer> | undefined {
  const bytes = (buffer: Buffer) => new Uint8Array(buffer);
  if (entry.bodyBase64 !== undefined) return bytes(Buffer.from(entry.bodyBase64, "base64"));
  if (entry.bodyRepeat) {
    const { prefix, unit, times, separator, suffix } = entry.bodyRepeat;
    const units = Array.from({ length: times }, (_, i) => unit.replaceAll("{{i}}", String(i)));
    return bytes(Buffer.from(prefix + units.join(separator) + suffix, "utf8"));
  }
  return entry.body === undefined ? undefined : bytes(Buffer.from(entry.body, "utf8"));
}

const ENVELOPE_KEYS = ["error", "message", "success"];

/** The endpoint's contract for any input: a 201 with a lead id, or a 4xx envelope. */
async function expectContract(res: Response, teamId: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const text = await res.text();
  expect(res.status, `5xx for: ${text}`).toBeLessThan(500);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  const body = JSON.parse(text) as Record<string, unknown>;
  if (res.status === 201) {
    expect(body).toEqual({ success: true, lead_id: expect.stringMatching(/^CRM-LEAD-\d{5,}$/), message: expect.any(String) });
    expect(await countLeads(teamId)).toBe(1);
  } else {
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(Object.keys(body).sort()).toEqual(ENVELOPE_KEYS);
    expect(body.success).toBe(false);
    expect(await countLeads(teamId)).toBe(0);
  }
  return { status: res.status, body };
}

async function stillServing(): Promise<void> {
  const res = await fetch(`${baseURL}/api/ping`);
  expect(res.status).toBe(200);
}

test.describe("bad-input corpus", () => {
  test("the corpus holds at least 40 cases", () => {
    expect(corpus.cases.length + corpus.raw.length).toBeGreaterThanOrEqual(40);
  });

  for (const entry of corpus.cases) {
    test(`${entry.title} → ${entry.expect.status}`, async () => {
      const { team, key } = await newTeamWithKey();
      const headers: Record<string, string> = { ...authHeaders(key), ...entry.headers };
      if (entry.contentType !== undefined) headers["Content-Type"] = entry.contentType;
      const res = await fetch(`${baseURL}${CREATE_LEAD}`, { method: "POST", headers, body: bodyOf(entry) });
      const { status, body } = await expectContract(res, team.id);
      expect(status, JSON.stringify(body)).toBe(entry.expect.status);
      if (entry.expect.error) expect(body.error).toMatch(new RegExp(entry.expect.error));
      if (entry.expect.message) expect(body.message).toBe(entry.expect.message);
      if (entry.requestId === "generated") expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      if (status === 201 && entry.stored) {
        const lead = await findLead({ id: String(body.lead_id), teamId: team.id });
        expect(lead).toMatchObject(entry.stored);
      }
      await stillServing();
    });
  }

  for (const entry of corpus.raw) {
    test(`raw: ${entry.title} → refused by the HTTP parser`, async () => {
      const { team, key } = await newTeamWithKey();
      const request = entry.request
        .replaceAll("{{KEY}}", key.keyId)
        .replaceAll("{{SECRET}}", key.secret)
        .replace(/\{\{FILL_(\d+)\}\}/g, (_, n: string) => "f".repeat(Number(n)));
      const status = await rawRequest(request, entry.endAfterWrite === true);
      expect(entry.expectStatus).toContain(status);
      expect(await countLeads(team.id)).toBe(0);
      await stillServing();
    });
  }
});

/** Sends bytes over a fresh socket; the response's status code, or null when the server closed without one. */
function rawRequest(request: string, endAfterWrite: boolean): Promise<number | null> {
  const url = new URL(baseURL);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    let received = "";
    socket.setTimeout(10_000, () => {
      socket.destroy();
      reject(new Error("no answer within 10 s"));
    });
    socket.on("data", (chunk) => (received += chunk.toString("latin1")));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      const match = /^HTTP\/1\.1 (\d{3})/.exec(received);
      resolve(match ? Number(match[1]) : null);
    });
    socket.write(Buffer.from(request, "latin1"), () => {
      if (endAfterWrite) socket.end();
    });
    // Without Connection: close, a parsed request would keep the socket open.
    if (!endAfterWrite) setTimeout(() => socket.end(), 2_000);
  });
}

// Properties: random input of each kind, each with its own team so rows can be counted.
const CONTENT_TYPES = [
  "application/json",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=XyZ",
  "text/plain",
  "",
  "application/json; charset=latin1",
];

test.describe("fast-check properties", () => {
  test.describe.configure({ timeout: 240_000 });

  test("any JSON object: a 201 with the lead stored, or a 4xx envelope and nothing stored", async () => {
    const fields = fc.dictionary(
      fc.oneof(
        fc.constantFrom("name", "email", "phone", "website", "__proto__", "constructor"),
        fc.string({ unit: "binary", maxLength: 80 }),
      ),
      fc.oneof(fc.string({ unit: "binary", maxLength: 300 }), fc.jsonValue({ maxDepth: 3 })),
      { maxKeys: 60 },
    );
    await fc.assert(
      fc.asyncProperty(fields, fc.boolean(), async (object, withName) => {
        const payload = withName ? { ...object, name: "Property Lead" } : object;
        const { team, key } = await newTeamWithKey();
        const res = await fetch(`${baseURL}${CREATE_LEAD}`, {
          method: "POST",
          headers: { ...authHeaders(key), "Content-Type": "application/json" },
          body: JSON.stringify(payload),
        });
        const { status, body } = await expectContract(res, team.id);
        if (status === 201 && withName) {
          const lead = await findLead({ id: String(body.lead_id), teamId: team.id });
          expect(lead).toMatchObject({ firstName: "Property", lastName: "Lead" });
        }
      }),
      { numRuns: 150 },
    );
    await stillServing();
  });

  test("any bytes under any content type: never a 5xx, never a partial row", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 4_000 }), fc.constantFrom(...CONTENT_TYPES), async (bytes, type) => {
        const { team, key } = await newTeamWithKey();
        const headers: Record<string, string> = authHeaders(key);
        if (type) headers["Content-Type"] = type;
        await expectContract(await fetch(`${baseURL}${CREATE_LEAD}`, { method: "POST", headers, body: bytes }), team.id);
      }),
      { numRuns: 120 },
    );
    await stillServing();
  });

  test("any urlencoded text, including stray % escapes and repeated names", async () => {
    const pair = fc.tuple(
      fc.oneof(fc.constantFrom("name", "email", "name", "x"), fc.string({ maxLength: 20 })),
      fc.oneof(fc.string({ unit: "binary", maxLength: 60 }), fc.constantFrom("%", "%zz", "%C3%28", "%00", "+", "%E2%82")),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(pair, { maxLength: 20 }), async (pairs) => {
        const { team, key } = await newTeamWithKey();
        const body = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join("&");
        const res = await fetch(`${baseURL}${CREATE_LEAD}`, {
          method: "POST",
          headers: { ...authHeaders(key), "Content-Type": "application/x-www-form-urlencoded" },
          body,
        });
        await expectContract(res, team.id);
      }),
      { numRuns: 120 },
    );
    await stillServing();
  });
});
