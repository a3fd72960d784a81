import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import {
  DEFAULT_SPAM_SETTINGS,
  DEFAULT_SPAM_THRESHOLD,
  EMPTY_SPAM_LISTS,
  SPAM_REASON_CODES,
  spamVerdict,
  type SpamContext,
  type SpamLists,
  type SpamSettings,
  type SpamSubmission,
} from "./spam-verdict";

const settings = (overrides: Partial<SpamSettings> = {}, lists: Partial<SpamLists> = {}): SpamSettings => ({
  ...DEFAULT_SPAM_SETTINGS,
  ...overrides,
  lists: { ...EMPTY_SPAM_LISTS, ...lists },
});
const codes = (submission: SpamSubmission, s?: SpamSettings, context?: SpamContext) =>
  spamVerdict(submission, s, context).reasons.map((r) => r.code);

const honest: SpamSubmission = {
  name: "Mthunzi Dlamini",
  organization: "Dlamini & Mthembu Attorneys",
  email: "mthunzi@gmail.com",
  senderIp: "198.51.100.7",
  extraFields: { message: "Please send a quote for twelve users, our website is https://dlamini-attorneys.co.za" },
};

const text = fc.string({ unit: "grapheme", maxLength: 80 });
const submissionArb: fc.Arbitrary<SpamSubmission> = fc.record(
  {
    name: text,
    first_name: text,
    last_name: text,
    organization: text,
    email: fc.oneof(fc.emailAddress(), text),
    phone: text,
    mobile: text,
    senderIp: fc.oneof(fc.ipV4(), fc.ipV6(), text),
    extraFields: fc.dictionary(fc.string(), fc.oneof(text, fc.integer(), fc.boolean(), fc.array(text, { maxLength: 3 }))),
  },
  { requiredKeys: [] },
);

describe("spamVerdict (issue 42)", () => {
  test("an honest lead scores nothing", () => {
    assert.deepEqual(spamVerdict(honest), { score: 0, reasons: [], quarantined: false, allowListed: false });
  });

  const reasonCases: [string, SpamSubmission, SpamSettings | undefined, SpamContext | undefined, string][] = [
    ["link in a name", { ...honest, name: "https://x.example" }, undefined, undefined, "link_in_name"],
    ["random token", { ...honest, last_name: "bXgjKwqZrTplM" }, undefined, undefined, "random_name"],
    ["disposable address", { ...honest, email: "a@mailinator.com" }, undefined, undefined, "disposable_email"],
    ["free mail, business only", honest, settings({ businessEmailOnly: true }), undefined, "free_email"],
    ["markup in a message", { ...honest, extraFields: { note: "[url=https://x.example]x[/url]" } }, undefined, undefined, "message_links"],
    ["blocked word", honest, settings({}, { blockedWords: ["quote"] }), undefined, "blocked_word"],
    ["blocked domain", honest, settings({}, { blockedEmailDomains: ["gmail.com"] }), undefined, "blocked_email"],
    ["blocked IP", honest, settings({}, { blockedIpRanges: ["198.51.100.0/24"] }), undefined, "blocked_ip"],
    ["burst", honest, undefined, { recentFromAddress: 5, recentFromSender: 0, burstLimit: 5 }, "burst"],
  ];
  for (const [title, submission, s, context, code] of reasonCases) {
    test(`${title} → ${code}, quarantined at the default threshold`, () => {
      const verdict = spamVerdict(submission, s, context);
      assert.deepEqual(
        verdict.reasons.map((r) => r.code),
        [code],
      );
      assert.equal(verdict.quarantined, true);
      assert.ok(SPAM_REASON_CODES.includes(verdict.reasons[0]!.code));
    });
  }

  test("free mail scores only where the team takes business addresses only", () => {
    assert.deepEqual(codes(honest), []);
  });

  test("a burst is more than the limit, this lead included", () => {
    assert.deepEqual(codes(honest, undefined, { recentFromAddress: 4, recentFromSender: 4, burstLimit: 5 }), []);
    assert.deepEqual(codes(honest, undefined, { recentFromAddress: 0, recentFromSender: 5, burstLimit: 5 }), ["burst"]);
  });

  test("two links in a message score, but below the threshold", () => {
    const verdict = spamVerdict({
      ...honest,
      extraFields: { message: `${honest.extraFields!.message as string} and https://other.example` },
    });
    assert.equal(verdict.score, 5);
    assert.equal(verdict.quarantined, false);
  });

  test("the team's threshold decides", () => {
    assert.equal(DEFAULT_SPAM_THRESHOLD, 10);
    const twoLinks = { ...honest, extraFields: { message: "Links for you: https://a.example https://b.example thanks a lot" } };
    assert.equal(spamVerdict(twoLinks, settings({ threshold: 5 })).quarantined, true);
    assert.equal(spamVerdict({ ...honest, email: "a@mailinator.com" }, settings({ threshold: 20 })).quarantined, false);
  });

  test("never throws, whatever comes in", () => {
    fc.assert(
      fc.property(fc.anything({ maxDepth: 2 }), fc.anything({ maxDepth: 2 }), fc.anything({ maxDepth: 2 }), (submission, s, context) => {
        const verdict = spamVerdict(submission as SpamSubmission, s as SpamSettings, context as SpamContext);
        assert.equal(typeof verdict.score, "number");
      }),
      { numRuns: 60 },
    );
    const list = fc.array(fc.string({ unit: "binary", maxLength: 20 }), { maxLength: 4 });
    const listsArb = fc.record({
      blockedWords: list,
      blockedEmailDomains: list,
      blockedEmails: list,
      blockedIpRanges: fc.array(fc.oneof(fc.ipV4(), fc.ipV6(), fc.string()), { maxLength: 3 }),
      allowEmails: list,
      allowEmailDomains: list,
    });
    fc.assert(
      fc.property(submissionArb, listsArb, fc.boolean(), (submission, lists, businessEmailOnly) => {
        assert.equal(
          typeof spamVerdict(submission, { threshold: DEFAULT_SPAM_THRESHOLD, businessEmailOnly, lists }).quarantined,
          "boolean",
        );
      }),
    );
  });

  test("an allow-list entry always wins", () => {
    fc.assert(
      fc.property(submissionArb, fc.boolean(), fc.nat(50), (submission, byDomain, count) => {
        const email = submission.email ?? "";
        const domain = email.includes("@") ? email.slice(email.lastIndexOf("@") + 1) : "";
        fc.pre(byDomain ? domain.replace(/\.+$/, "").trim() !== "" : email.trim() !== "");
        const lists = byDomain ? { allowEmailDomains: [domain] } : { allowEmails: [email] };
        const spammy = settings(
          { businessEmailOnly: true, threshold: 0 },
          { ...lists, blockedWords: ["a", "e"], blockedIpRanges: ["0.0.0.0/0", "::/0"] },
        );
        const verdict = spamVerdict(submission, spammy, { recentFromAddress: count, recentFromSender: count, burstLimit: 0 });
        assert.equal(verdict.quarantined, false);
        assert.equal(verdict.allowListed, true);
      }),
    );
  });

  test("the score never falls when a list gains an entry (monotone in added reasons)", () => {
    fc.assert(
      fc.property(submissionArb, fc.array(text, { maxLength: 3 }), fc.array(text, { maxLength: 3 }), (submission, before, added) => {
        const base = spamVerdict(submission, settings({}, { blockedWords: before, blockedEmailDomains: before }));
        const more = spamVerdict(
          submission,
          settings({}, { blockedWords: [...before, ...added], blockedEmailDomains: [...before, ...added] }),
        );
        assert.ok(more.score >= base.score);
        assert.equal(
          more.score,
          more.reasons.reduce((sum, r) => sum + r.points, 0),
        );
      }),
      { numRuns: 50 },
    );
  });

  test("reason texts never quote the submission", () => {
    const secret = "Zqxjvwbkfhtplm";
    const submission: SpamSubmission = {
      name: `https://${secret}.example`,
      organization: `<b>${secret}</b>`,
      email: `${secret}@mailinator.com`,
      extraFields: { message: `[url=https://${secret}.example]${secret}[/url] https://a.example https://b.example` },
    };
    const verdict = spamVerdict(submission, settings({}, { blockedWords: [secret] }));
    assert.ok(verdict.reasons.length >= 4);
    for (const r of verdict.reasons) assert.ok(!r.text.toLowerCase().includes(secret.toLowerCase()), r.text);
  });
});
