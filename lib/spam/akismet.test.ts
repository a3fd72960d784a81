import assert from "node:assert/strict";
import { after, before, beforeEach, describe, mock, test } from "node:test";
import { startAkismetFake, type AkismetFake } from "../test-support/akismet-fake";
import { metrics } from "../operations/metrics";
import { akismetCheck, akismetConfigOf, akismetIp, type AkismetConfig, type AkismetSubmission } from "./akismet";

// The Akismet client (docs/spam.md "Akismet (optional)") against a local fake that speaks the
// comment-check protocol: spam and ham are verdicts; a wrong key, a 500, a hang past the budget
// or a closed port are no verdict (null), counted and logged without the key or the content.

let fake: AkismetFake;
let config: AkismetConfig;
const stderr: string[] = [];

before(async () => {
  fake = await startAkismetFake({ apiKey: "key-123", marker: "BUY-NOW" });
  config = { apiKey: "key-123", blog: "https://leads.example.com", endpoint: fake.endpoint, timeoutMs: 3_000 };
  mock.method(process.stderr, "write", (line: string | Uint8Array) => {
    stderr.push(String(line));
    return true;
  });
});
after(() => fake.close());
beforeEach(() => {
  fake.mode = "answer";
  fake.requests.length = 0;
  stderr.length = 0;
});

const SUBMISSION: AkismetSubmission = {
  ip: "198.51.100.7",
  userAgent: "Mozilla/5.0 (X11; Linux x86_64)",
  referrer: "https://www.example.com/contact",
  author: "Ada Lovelace",
  email: "ada@example.com",
  content: "Hello, we would like a quote.",
};

const count = async (result: string) =>
  (await metrics().akismetChecks.get()).values.find((value) => value.labels.result === result)?.value ?? 0;

describe("akismetCheck", () => {
  test('ham: the documented form fields are sent, the answer "false" is ham', async () => {
    const before = await count("ham");
    assert.equal(await akismetCheck(SUBMISSION, config), "ham");
    assert.equal(fake.requests.length, 1);
    assert.deepEqual(fake.requests[0], {
      path: "/1.1/comment-check",
      fields: {
        api_key: "key-123",
        blog: "https://leads.example.com",
        user_ip: "198.51.100.7",
        user_agent: "Mozilla/5.0 (X11; Linux x86_64)",
        referrer: "https://www.example.com/contact",
        comment_type: "contact-form",
        comment_author: "Ada Lovelace",
        comment_author_email: "ada@example.com",
        comment_content: "Hello, we would like a quote.",
        blog_charset: "UTF-8",
      },
    });
    assert.equal(await count("ham"), before + 1);
  });

  test('spam: the answer "true" is spam; so is a "discard" pro-tip', async () => {
    assert.equal(await akismetCheck({ ...SUBMISSION, content: "BUY-NOW cheap" }, config), "spam");
    fake.mode = "discard";
    assert.equal(await akismetCheck(SUBMISSION, config), "spam");
  });

  test("empty fields are left out; an IPv6 /64 is sent as its first address", async () => {
    assert.equal(await akismetCheck({ ip: "2001:db8:1:2::/64", content: "", userAgent: null, email: "" }, config), "ham");
    assert.deepEqual(Object.keys(fake.requests[0]!.fields).sort(), ["api_key", "blog", "blog_charset", "comment_type", "user_ip"]);
    assert.equal(fake.requests[0]!.fields.user_ip, "2001:db8:1:2::");
  });

  const failures: { name: string; mode?: AkismetFake["mode"]; config?: Partial<AkismetConfig>; result: string }[] = [
    { name: 'a wrong key ("invalid")', config: { apiKey: "wrong-key-999" }, result: "error" },
    { name: "a 500", mode: "error", result: "error" },
    { name: "no answer within the budget", mode: "hang", config: { timeoutMs: 300 }, result: "timeout" },
    { name: "a closed port", config: { endpoint: "http://127.0.0.1:9" }, result: "error" },
  ];
  for (const failure of failures) {
    test(`${failure.name}: no verdict (null), counted as ${failure.result}, logged without the key or the content`, async () => {
      fake.mode = failure.mode ?? "answer";
      const before = await count(failure.result);
      const secretContent = "BUY-NOW private message 4417";
      assert.equal(await akismetCheck({ ...SUBMISSION, content: secretContent }, { ...config, ...failure.config }), null);
      assert.equal(await count(failure.result), before + 1);
      const lines = stderr.join("");
      assert.match(lines, /"event":"spam.akismet_failed"/);
      assert.match(lines, new RegExp(`"result":"${failure.result}"`));
      for (const secret of ["key-123", "wrong-key-999", secretContent, "ada@example.com", "Ada Lovelace"]) {
        assert.ok(!lines.includes(secret), `the log holds no ${secret}`);
      }
    });
  }

  test("the invalid answer's debug help is logged", async () => {
    await akismetCheck(SUBMISSION, { ...config, apiKey: "wrong" });
    assert.match(stderr.join(""), /"help":"Invalid API key\."/);
  });

  test("no usable address, or no settings: nothing is sent", async () => {
    assert.equal(await akismetCheck({ ...SUBMISSION, ip: "unknown" }, config), null);
    assert.equal(await akismetCheck({ ...SUBMISSION, ip: null }, config), null);
    assert.equal(await akismetCheck(SUBMISSION, null), null);
    assert.equal(fake.requests.length, 0);
  });
});

describe("settings", () => {
  const base = { AKISMET_ENDPOINT: "https://rest.akismet.com", AKISMET_TIMEOUT_MS: 1000 };
  test("the check runs with a key and a site: AKISMET_BLOG, else NEXTAUTH_URL", () => {
    assert.equal(
      akismetConfigOf({ ...base, AKISMET_API_KEY: undefined, AKISMET_BLOG: "https://a.example", NEXTAUTH_URL: undefined }),
      null,
    );
    assert.equal(akismetConfigOf({ ...base, AKISMET_API_KEY: "k", AKISMET_BLOG: undefined, NEXTAUTH_URL: undefined }), null);
    assert.deepEqual(
      akismetConfigOf({ ...base, AKISMET_API_KEY: "k", AKISMET_BLOG: undefined, NEXTAUTH_URL: "https://leads.example.com" }),
      {
        apiKey: "k",
        blog: "https://leads.example.com",
        endpoint: "https://rest.akismet.com",
        timeoutMs: 1000,
      },
    );
    assert.equal(
      akismetConfigOf({ ...base, AKISMET_API_KEY: "k", AKISMET_BLOG: "https://site.example", NEXTAUTH_URL: "https://leads.example.com" })
        ?.blog,
      "https://site.example",
    );
  });

  test("addresses", () => {
    assert.equal(akismetIp("203.0.113.9"), "203.0.113.9");
    assert.equal(akismetIp("2001:db8::/64"), "2001:db8::");
    assert.equal(akismetIp("invalid:abc"), null);
    assert.equal(akismetIp("unknown"), null);
  });
});
