import { expect, test } from "@playwright/test";
import { createApiKey } from "../../lib/api-keys/api-key-changes";
import { db } from "../../lib/db/client";
import { fingerprint } from "../../lib/idempotency/idempotency";
import { countLeads } from "../../lib/leads/lead-store";
import { BASE_URL, CREATE_LEAD, authHeaders, newTeamWithKey } from "../support/fixtures";

// Idempotency-Key over real HTTP (docs/security.md "Hardening"): Stripe's semantics, scoped to the key.

const post = (headers: Record<string, string>, body: string, type = "application/json") =>
  fetch(`${BASE_URL}${CREATE_LEAD}`, { method: "POST", headers: { ...headers, "Content-Type": type }, body });

const key = () => `idem-${crypto.randomUUID()}`;

test("a retry with the same body replays the same status and body and creates nothing", async () => {
  const { team, key: apiKey } = await newTeamWithKey();
  const headers = { ...authHeaders(apiKey), "Idempotency-Key": key() };
  const body = JSON.stringify({ name: "Ada Lovelace", phone: "12345" });
  const first = await post(headers, body);
  const firstText = await first.text();
  expect(first.status).toBe(201);
  expect(first.headers.get("idempotent-replayed")).toBeNull();

  for (let i = 0; i < 3; i++) {
    const again = await post(headers, body);
    expect(again.status).toBe(201);
    expect(await again.text()).toBe(firstText);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
  }
  expect(await countLeads(team.id)).toBe(1);
});

test("without an Idempotency-Key, identical posts each create a lead (the spec creates every lead)", async () => {
  const { team, key: apiKey } = await newTeamWithKey();
  const body = JSON.stringify({ name: "Ada Lovelace", email: "ada@example.com" });
  const answers = [];
  for (let i = 0; i < 3; i++) {
    const response = await post(authHeaders(apiKey), body);
    answers.push({ status: response.status, replayed: response.headers.get("idempotent-replayed"), id: (await response.json()).lead_id });
  }
  expect(answers.map((a) => [a.status, a.replayed])).toEqual(Array(3).fill([201, null]));
  expect(new Set(answers.map((a) => a.id)).size).toBe(3);
  expect(await countLeads(team.id)).toBe(3);
});

test("the same parameters in another order or encoding count as the same request", async () => {
  const { team, key: apiKey } = await newTeamWithKey();
  const headers = { ...authHeaders(apiKey), "Idempotency-Key": key() };
  const first = await post(headers, JSON.stringify({ name: "Bob", source: "Web" }));
  const reordered = await post(headers, JSON.stringify({ source: "Web", name: "Bob" }));
  const form = await post(headers, "name=Bob&source=Web", "application/x-www-form-urlencoded");
  const multipart = new FormData();
  multipart.set("source", "Web");
  multipart.set("name", "Bob");
  const asMultipart = await fetch(`${BASE_URL}${CREATE_LEAD}`, { method: "POST", headers, body: multipart });
  const firstText = await first.text();
  for (const res of [reordered, form, asMultipart]) {
    expect(res.status).toBe(201);
    expect(await res.text()).toBe(firstText);
  }
  expect(await countLeads(team.id)).toBe(1);
});

test("the same key with a different body is refused with 422 and creates nothing", async () => {
  const { team, key: apiKey } = await newTeamWithKey();
  const headers = { ...authHeaders(apiKey), "Idempotency-Key": key() };
  expect((await post(headers, JSON.stringify({ name: "Carla" }))).status).toBe(201);
  const other = await post(headers, JSON.stringify({ name: "Carla", email: "carla@example.com" }));
  expect(other.status).toBe(422);
  expect(await other.json()).toEqual({
    success: false,
    error: "This Idempotency-Key was already used with a different request",
    message: "Validation failed",
  });
  expect(await countLeads(team.id)).toBe(1);
});

test("keys are scoped to the API key: another key's identical Idempotency-Key is independent", async () => {
  const { team, key: first } = await newTeamWithKey();
  const second = await createApiKey({ teamId: team.id, description: "second" });
  const idempotencyKey = key();
  const body = JSON.stringify({ name: "Dora" });
  const a = await post({ ...authHeaders(first), "Idempotency-Key": idempotencyKey }, body);
  const b = await post({ ...authHeaders(second), "Idempotency-Key": idempotencyKey }, body);
  expect([a.status, b.status]).toEqual([201, 201]);
  expect((await a.json()).lead_id).not.toBe((await b.json()).lead_id);
  expect(await countLeads(team.id)).toBe(2);
});

test("a retry while the first request is still running gets 409", async () => {
  const { team, key: apiKey } = await newTeamWithKey();
  const idempotencyKey = key();
  const body = { name: "Eve" };
  // The first request has claimed the key and is still working (no response stored yet).
  await db().idempotencyRecord.create({
    data: {
      apiKeyId: apiKey.keyId,
      key: idempotencyKey,
      fingerprint: fingerprint("create_lead", Object.entries(body)),
      token: "held-by-the-first-request",
      lockedAt: new Date(),
      expiresAt: new Date(Date.now() + 86_400_000),
    },
  });
  const res = await post({ ...authHeaders(apiKey), "Idempotency-Key": idempotencyKey }, JSON.stringify(body));
  expect(res.status).toBe(409);
  expect(res.headers.get("retry-after")).toBe("1");
  expect(await res.json()).toEqual({
    success: false,
    error: "A request with this Idempotency-Key is still being processed; retry shortly",
    message: "Conflict",
  });
  expect(await countLeads(team.id)).toBe(0);
});

test("a claim abandoned by a crashed request is taken over after 60 s; an expired key starts afresh", async () => {
  const { team, key: apiKey } = await newTeamWithKey();
  const body = { name: "Fay" };
  const stale = key();
  const expired = key();
  const common = { apiKeyId: apiKey.keyId, fingerprint: fingerprint("create_lead", Object.entries(body)) };
  await db().idempotencyRecord.create({
    data: { ...common, key: stale, token: "dead", lockedAt: new Date(Date.now() - 120_000), expiresAt: new Date(Date.now() + 86_000_000) },
  });
  await db().idempotencyRecord.create({
    data: {
      ...common,
      key: expired,
      fingerprint: "an-older-request",
      token: "old",
      lockedAt: new Date(Date.now() - 90_000_000),
      expiresAt: new Date(Date.now() - 3_600_000),
      responseStatus: 201,
      responseBody: '{"success":true,"lead_id":"CRM-LEAD-99999","message":"Lead created successfully"}',
    },
  });
  const afterStale = await post({ ...authHeaders(apiKey), "Idempotency-Key": stale }, JSON.stringify(body));
  expect(afterStale.status).toBe(201);
  const afterExpiry = await post({ ...authHeaders(apiKey), "Idempotency-Key": expired }, JSON.stringify(body));
  expect(afterExpiry.status).toBe(201);
  expect((await afterExpiry.json()).lead_id).not.toBe("CRM-LEAD-99999");
  expect(await countLeads(team.id)).toBe(2);
});

test("a request refused for bad input stores nothing: the corrected retry with the same key succeeds", async () => {
  const { team, key: apiKey } = await newTeamWithKey();
  const headers = { ...authHeaders(apiKey), "Idempotency-Key": key() };
  expect((await post(headers, JSON.stringify({ email: "no-name@example.com" }))).status).toBe(422);
  const fixed = await post(headers, JSON.stringify({ name: "Gil", email: "no-name@example.com" }));
  expect(fixed.status).toBe(201);
  expect(await countLeads(team.id)).toBe(1);
});

test("50 concurrent identical requests create exactly one lead; the others replay it or get 409", async () => {
  const { team, key: apiKey } = await newTeamWithKey();
  const headers = { ...authHeaders(apiKey), "Idempotency-Key": key() };
  const body = JSON.stringify({ name: "Concurrent Carl" });
  const responses = await Promise.all(Array.from({ length: 50 }, () => post(headers, body)));
  const results = await Promise.all(responses.map(async (r) => ({ status: r.status, text: await r.text() })));
  expect(results.every((r) => r.status === 201 || r.status === 409)).toBe(true);
  const created = results.filter((r) => r.status === 201);
  expect(created.length).toBeGreaterThanOrEqual(1);
  expect(new Set(created.map((r) => r.text)).size).toBe(1);
  expect(await countLeads(team.id)).toBe(1);

  const later = await post(headers, body);
  expect(later.status).toBe(201);
  expect(await later.text()).toBe(created[0]!.text);
  expect(await countLeads(team.id)).toBe(1);
});
