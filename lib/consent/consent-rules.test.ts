import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { htmlSnippet } from "../web-forms/snippets";
import { consentAnswer, consentEvidence, consentTime, CONSENT_REQUIRED } from "./consent-evidence";
import { parseConsentSettings, parsePolicyUrl, parseRecordedConsent } from "./consent-settings";

// The consent rules without a database (docs/consent.md): the settings a form sends, the
// values `consent` and `consent_at` are read from, and the snippet's box.

const formData = (fields: Record<string, string>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
};

test("the settings: off is null; text and purpose required; the policy link https only; each refusal says what to fix", () => {
  const on = { consent_asked: "on", consent_text: "I agree.", consent_purpose: "Marketing emails" };
  assert.deepEqual(parseConsentSettings(formData({ consent_double_opt_in: "on" })), {
    settings: null,
    doubleOptIn: false,
    hold: false,
  });
  assert.deepEqual(parseConsentSettings(formData({ ...on, consent_required: "on", consent_policy_url: "https://example.com/p" })), {
    settings: { text: "I agree.", purpose: "Marketing emails", policyUrl: "https://example.com/p", required: true },
    doubleOptIn: false,
    hold: false,
  });
  assert.equal((parseConsentSettings(formData({ ...on, consent_double_opt_in: "on" })) as { doubleOptIn: boolean }).doubleOptIn, true);
  // When to create the lead (held mode): only once confirmed, only with double opt-in; the default is now, pending.
  const hold = (entries: Record<string, string>) => (parseConsentSettings(formData({ ...on, ...entries })) as { hold: boolean }).hold;
  assert.equal(hold({ consent_double_opt_in: "on", consent_create_lead: "once_confirmed" }), true);
  assert.equal(hold({ consent_double_opt_in: "on", consent_create_lead: "now" }), false);
  assert.equal(hold({ consent_double_opt_in: "on" }), false);
  assert.equal(hold({ consent_create_lead: "once_confirmed" }), false, "no double opt-in, nothing held");
  const problems: [Record<string, string>, string][] = [
    [{ ...on, consent_text: " " }, "Write the consent text the visitor agrees to"],
    [{ ...on, consent_purpose: "" }, "Name the purpose of the consent, for example “Marketing emails”"],
    [{ ...on, consent_policy_url: "http://example.com/p" }, "The privacy policy must be a full https:// address"],
    [{ ...on, consent_policy_url: "javascript:alert(1)" }, "The privacy policy must be a full https:// address"],
    [{ ...on, consent_text: "x".repeat(2001) }, "The consent text can be at most 2000 characters"],
  ];
  for (const [fields, problem] of problems) assert.deepEqual(parseConsentSettings(formData(fields)), { problem });
  assert.equal(parsePolicyUrl("https://user:pw@example.com/"), null);
});

test("a recorded consent needs its text, purpose and how it was given", () => {
  const at = new Date("2026-12-02T10:00:00Z");
  const full = { status: "given", text: "Calls", purpose: "Sales", note: "By phone" };
  assert.deepEqual(parseRecordedConsent(formData(full), at), { consent: { ...full, consentAt: at } });
  assert.ok("problem" in parseRecordedConsent(formData({ ...full, status: "maybe" }), at));
  assert.ok("problem" in parseRecordedConsent(formData({ ...full, note: "" }), at));
});

test("consent reads true/yes/1/on and false/no/0/off (any case, spaces around); anything else is no answer", () => {
  for (const value of [true, 1, "yes", " ON ", "True", "1"]) assert.equal(consentAnswer(value), "given");
  for (const value of [false, 0, "no", "OFF", "false", "0"]) assert.equal(consentAnswer(value), "not_given");
  for (const value of [undefined, "maybe", 2, "", ["yes"]]) assert.equal(consentAnswer(value), null);
  fc.assert(
    fc.property(fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.array(fc.string())), (value) => {
      assert.ok([null, "given", "not_given"].includes(consentAnswer(value)));
    }),
  );
});

test("consent_at is an ISO time with its offset, years 1000–9999; anything else is null", () => {
  assert.equal(consentTime("2026-11-30T09:15:00+01:00")?.toISOString(), "2026-11-30T08:15:00.000Z");
  assert.equal(consentTime("2026-11-30T09:15Z")?.toISOString(), "2026-11-30T09:15:00.000Z");
  for (const value of ["2026-11-30", "2026-11-30T09:15:00", "0999-01-01T00:00:00Z", "2026-13-45T99:99:00Z", "yesterday", 1_700_000_000]) {
    assert.equal(consentTime(value), null, String(value));
  }
});

test("a web form's required consent is refused unless given; a browser's consent_at is never taken", () => {
  const base = {
    channel: "form" as const,
    posted: null,
    ip: "203.0.113.1",
    userAgent: "ua",
    referrer: "https://example.com/p",
    receivedAt: new Date(0),
  };
  const asked = { id: "cv_1", required: true };
  assert.throws(() => consentEvidence({ ...base, asked, extraFields: {} }), { message: CONSENT_REQUIRED, status: 422 } as object);
  const given = consentEvidence({ ...base, asked, extraFields: { consent: "yes", consent_at: "2020-01-01T00:00:00Z" } });
  assert.equal(given?.consentAt.getTime(), 0);
  assert.equal(given?.pageUrl, "https://example.com/p");
  assert.equal(consentEvidence({ ...base, asked: null, extraFields: { other: "x" } }), null);
});

test("the snippet's box is unticked and its text is escaped: a team's text never becomes markup on its site", () => {
  const html = htmlSnippet(
    { id: "form_x", challenge: false, consent: { id: "cv_1", text: `<b>"Yes" & more</b>`, policyUrl: null, required: false } },
    "https://leads.example.com",
  );
  assert.match(html, /<input type="checkbox" name="consent" value="yes"> &lt;b&gt;&quot;Yes&quot; &amp; more&lt;\/b&gt;<\/label>/);
  assert.match(html, /<input type="hidden" name="consent_version" value="cv_1">/);
  assert.doesNotMatch(html, /checked/);
});
