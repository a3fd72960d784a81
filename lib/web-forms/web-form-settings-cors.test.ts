import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";

// A web form's settings and the endpoints around a submission, below the HTTP server: allowed
// origins and the form's settings as parsed (lib/web-forms/allowed-origins.ts,
// web-form-settings.ts) and as changed (web-form-changes.ts: audited, another team's source
// refused, delete), the CORS preflight and the challenge endpoint
// (lib/intake/web-form-endpoint.ts); on a real database (SQLite and PostgreSQL). Submissions:
// web-form-submissions.test.ts. Read once by lib/env.ts: a cheap proof of work, and the same
// small limits as the submissions' tests.
process.env.FORM_CHALLENGE_COST = "1";
process.env.FORM_SUBMISSIONS_PER_IP = "4";
process.env.FORM_SUBMISSIONS_PER_FORM = "8";
process.env.NEXTAUTH_URL = "https://leads.example.net";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { CLI_ACTOR } = await import("../audit/audit-log");
const { db } = await import("../db/client");
const { addLeadSource } = await import("../teams/lead-sources");
const { createTeam } = await import("../teams/team-store");
const { normaliseOrigin, parseAllowedOrigins, requestOrigin } = await import("./allowed-origins");
const { answerChallenge, answerFormPreflight } = await import("../intake/web-form-endpoint");
const { parseWebFormSettings } = await import("./web-form-settings");
const { SITE, newForm, nextIp, nextTeam, store } = await import("./web-forms.fixtures");

// Refusals write JSON log lines on stderr; keep the output clean.
mock.method(process.stderr, "write", () => true);

describe("allowed origins", () => {
  test("an origin is scheme, host and port; anything else is refused", () => {
    assert.equal(normaliseOrigin("https://Example.COM/"), "https://example.com");
    assert.equal(normaliseOrigin("http://localhost:8080"), "http://localhost:8080");
    assert.equal(normaliseOrigin("https://example.com:443"), "https://example.com");
    for (const bad of [
      "example.com",
      "ftp://example.com",
      "https://example.com/contact",
      "https://a@example.com",
      "https://example.com/?q",
      "javascript:alert(1)",
    ]) {
      assert.equal(normaliseOrigin(bad), null, bad);
    }
  });

  test("the setting takes several origins, at least one, without duplicates", () => {
    assert.deepEqual(parseAllowedOrigins("https://example.com\nhttps://www.example.com, https://example.com"), {
      origins: ["https://example.com", "https://www.example.com"],
    });
    assert.ok("problem" in parseAllowedOrigins("   "));
    assert.match((parseAllowedOrigins("https://example.com/form") as { problem: string }).problem, /is not an origin/);
  });

  test("a request's origin is its Origin header, else its Referer's; \"null\" is none", () => {
    assert.equal(requestOrigin(new Headers({ origin: "https://example.com" })), "https://example.com");
    assert.equal(requestOrigin(new Headers({ referer: "https://example.com/contact?x=1" })), "https://example.com");
    assert.equal(requestOrigin(new Headers({ origin: "null", referer: "https://example.com/" })), null);
    assert.equal(requestOrigin(new Headers()), null);
  });

  test("form settings are checked: name, origins, an absolute success URL", () => {
    const form = (entries: Record<string, string>) => {
      const data = new FormData();
      for (const [name, value] of Object.entries(entries)) data.set(name, value);
      return data;
    };
    const ok = parseWebFormSettings(
      form({ name: " Contact ", allowed_origins: "https://example.com", success_url: "https://example.com/thanks", challenge: "on" }),
    );
    assert.deepEqual(ok, {
      settings: {
        name: "Contact",
        allowedOrigins: ["https://example.com"],
        sourceId: null,
        successUrl: "https://example.com/thanks",
        challenge: true,
      },
    });
    assert.ok("problem" in parseWebFormSettings(form({ name: "", allowed_origins: "https://example.com" })));
    assert.ok("problem" in parseWebFormSettings(form({ name: "A", allowed_origins: "https://example.com", success_url: "/thanks" })));
    assert.ok(
      "problem" in parseWebFormSettings(form({ name: "A", allowed_origins: "https://example.com", success_url: "javascript:alert(1)" })),
    );
  });
});

describe("CORS and the challenge endpoint", () => {
  test("a preflight from an allowed origin is answered for POST; from another it gets no CORS headers", async () => {
    const { formId } = await newForm();
    const preflight = (origin: string) =>
      answerFormPreflight(
        new Request(`http://127.0.0.1/api/forms/${formId}`, {
          method: "OPTIONS",
          headers: { origin, "access-control-request-method": "POST" },
        }),
        formId,
        "POST",
      );
    const allowed = await preflight(SITE);
    assert.equal(allowed.status, 204);
    assert.equal(allowed.headers.get("access-control-allow-origin"), SITE);
    assert.equal(allowed.headers.get("access-control-allow-methods"), "POST");
    const foreign = await preflight("https://evil.example");
    assert.equal(foreign.status, 403);
    assert.equal(foreign.headers.get("access-control-allow-origin"), null);
  });

  test("the challenge is served to the form's origins and to same-origin pages; not to others", async () => {
    const { formId } = await newForm();
    const get = (headers: Record<string, string>) =>
      answerChallenge(
        new Request(`http://127.0.0.1/api/forms/${formId}/challenge`, { headers: { "x-forwarded-for": nextIp(), ...headers } }),
        formId,
      );
    const cross = await get({ origin: SITE });
    assert.equal(cross.status, 200);
    assert.equal(cross.headers.get("access-control-allow-origin"), SITE);
    const challenge = (await cross.json()) as { parameters: { algorithm: string; data: { form: string } }; signature: string };
    assert.equal(challenge.parameters.algorithm, "PBKDF2/SHA-256");
    assert.equal(challenge.parameters.data.form, formId);
    assert.ok(challenge.signature);
    assert.equal((await get({})).status, 200);
    assert.equal((await get({ origin: "https://evil.example" })).status, 403);
  });
});

describe("the form store", () => {
  test("changes are audited; a source of another team is refused; delete removes the form", async () => {
    const { team, formId } = await newForm();
    const stranger = await createTeam({ slug: `forms-${nextTeam()}`, name: "Stranger" });
    const foreignSource = await addLeadSource(stranger.id, "Theirs");
    const settings = { name: "Renamed", allowedOrigins: [SITE], sourceId: foreignSource.id, successUrl: null, challenge: false };
    await assert.rejects(store.updateWebForm({ teamId: team.id, formId, settings, actor: CLI_ACTOR }), store.UnknownSourceError);
    assert.equal(await store.updateWebForm({ teamId: team.id, formId, settings: { ...settings, sourceId: null }, actor: CLI_ACTOR }), true);
    assert.equal(
      await store.updateWebForm({ teamId: stranger.id, formId, settings: { ...settings, sourceId: null }, actor: CLI_ACTOR }),
      false,
      "another team's form",
    );
    assert.equal(await store.deleteWebForm({ teamId: stranger.id, formId, actor: CLI_ACTOR }), false);
    assert.equal(await store.deleteWebForm({ teamId: team.id, formId, actor: CLI_ACTOR }), true);
    const actions = (await db().auditEvent.findMany({ where: { teamId: team.id }, orderBy: { createdAt: "asc" } })).map((e) => e.action);
    assert.deepEqual(actions, ["web_form.created", "web_form.updated", "web_form.deleted"]);
    assert.equal(await store.findFormForIntake(formId), null);
  });
});
