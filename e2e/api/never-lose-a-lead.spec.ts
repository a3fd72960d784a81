import { expect, test } from "@playwright/test";
import fc from "fast-check";
import { db } from "../../lib/db/client";
import { findLead } from "../../lib/leads/lead-store";
import { listRequests } from "../../lib/request-log/request-log-store";
import { BASE_URL, CREATE_LEAD, authHeaders, newTeamWithKey } from "../support/fixtures";

// Issue 11 over real HTTP against `next start` (on SQLite, and on PostgreSQL in the second
// pass of `npm test`): odd phone input never answers 5xx, and every request of a known
// key, created or refused, is in that key's request log. The single cases are in
// e2e/api/bad-input-corpus.json; these are the properties and the log.

const SUCCESS = /^Lead created successfully( \(skipped invalid fields: (phone|mobile_no|phone, mobile_no)\))?$/;
const COUNTRIES = [undefined, "GB", "US", "DE", "IN", "BR"];

function encode(fields: Record<string, string>, encoding: "json" | "urlencoded" | "multipart"): { body: BodyInit; type?: string } {
  if (encoding === "json") return { body: JSON.stringify(fields), type: "application/json" };
  if (encoding === "urlencoded") return { body: new URLSearchParams(fields).toString(), type: "application/x-www-form-urlencoded" };
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return { body: form };
}

test.describe("no 5xx from phone input", () => {
  test.describe.configure({ timeout: 240_000 });

  test("property: any dial code 0–9999 (bare, +, 00), any national number, any team country → 201", async () => {
    const dialCode = fc.integer({ min: 0, max: 9999 }).chain((n) => fc.constantFrom(String(n), `+${n}`, `00${n}`));
    const national = fc.oneof(fc.stringMatching(/^0?[1-9][0-9 ]{3,14}$/), fc.string({ maxLength: 30 }));
    await fc.assert(
      fc.asyncProperty(
        dialCode,
        national,
        fc.constantFrom("phone", "mobile_no"),
        fc.constantFrom(...COUNTRIES),
        fc.constantFrom("json" as const, "urlencoded" as const, "multipart" as const),
        async (code, number, field, country, encoding) => {
          const { team, key } = await newTeamWithKey({ defaultPhoneCountry: country });
          const { body, type } = encode({ name: "Dial Code", [field]: number, country_code: code }, encoding);
          const res = await fetch(`${BASE_URL}${CREATE_LEAD}`, {
            method: "POST",
            headers: { ...authHeaders(key), ...(type ? { "Content-Type": type } : {}) },
            body,
          });
          const answer = (await res.json()) as { success: boolean; lead_id: string; message: string };
          expect(res.status, JSON.stringify({ code, number, field, country, encoding, answer })).toBe(201);
          expect(answer.message).toMatch(SUCCESS);
          const lead = await findLead({ id: answer.lead_id, teamId: team.id });
          const skipped = answer.message.includes(field);
          const [stored, kept] = field === "phone" ? [lead!.phone, lead!.skippedPhone] : [lead!.mobileNo, lead!.skippedMobileNo];
          // Either a valid E.164 number, or skipped with what was typed kept beside it.
          if (number.trim() === "") expect([stored, kept]).toEqual([null, null]);
          else if (skipped) expect([stored, kept]).toEqual([null, number.trim()]);
          else expect(stored).toMatch(/^\+[1-9]\d{5,15}$/);
        },
      ),
      { numRuns: 200 },
    );
  });
});

test.describe("the key's request log", () => {
  test("a created lead, a refused body and a wrong secret each appear with their outcome; an unknown key nowhere", async () => {
    const { team, key } = await newTeamWithKey();
    const post = (headers: Record<string, string>, body: string, type = "application/json") =>
      fetch(`${BASE_URL}${CREATE_LEAD}`, { method: "POST", headers: { ...headers, "Content-Type": type }, body });

    const created = await post(authHeaders(key), "name=Ada&interests=a&interests=b", "application/x-www-form-urlencoded");
    expect(created.status).toBe(201);
    const { lead_id } = (await created.json()) as { lead_id: string };
    expect((await post(authHeaders(key), '{"email":"ada@example.com"}')).status).toBe(422);
    const wrongSecret = `team_${"w".repeat(40)}`;
    expect((await post({ "X-API-Key": key.keyId, "X-API-Secret": wrongSecret }, '{"name":"Ada"}')).status).toBe(401);
    // Other tests write to the same log at the same time: count only what this request
    // could have written (under this team, whose secret it sent, or under the unknown id).
    const unknownKey = "f".repeat(20);
    const mine = { OR: [{ teamId: team.id }, { apiKeyId: unknownKey }] };
    const before = await db().apiRequest.count({ where: mine });
    expect((await post({ "X-API-Key": unknownKey, "X-API-Secret": key.secret }, '{"name":"Ada"}')).status).toBe(401);
    expect(await db().apiRequest.count({ where: mine })).toBe(before);

    const { rows } = await listRequests({ teamId: team.id, of: { apiKeyId: key.keyId } });
    expect(rows.map(({ status, leadId, error, ip, encoding }) => ({ status, leadId, error, ip, encoding }))).toEqual([
      { status: 401, leadId: null, error: "Invalid API key", ip: "127.0.0.1", encoding: "json" },
      { status: 422, leadId: null, error: "Name is required", ip: "127.0.0.1", encoding: "json" },
      { status: 201, leadId: lead_id, error: null, ip: "127.0.0.1", encoding: "urlencoded" },
    ]);
    expect(JSON.stringify(await db().apiRequest.findMany({ where: { teamId: team.id } }))).not.toContain(wrongSecret);
  });
});
