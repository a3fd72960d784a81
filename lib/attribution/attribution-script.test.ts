import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { describe, test } from "node:test";
import vm from "node:vm";
import { gzipSync } from "node:zlib";
import { fetchSnippet, htmlSnippet } from "../web-forms/snippets";
import { widgetFile } from "../web-forms/widget-files";
import { ATTRIBUTION_SOURCE, attributionScript, compactScript } from "./attribution-file";

// The attribution script (docs/attribution.md "The attribution script") as served: its size,
// and its rules run in a bare VM with a fake window (no DOM: forms are e2e/ui/attribution-script.spec.ts'
// in Chromium). The visits below are page loads, each a fresh run of the served text on the
// same storage, at a clock the test sets.

const SERVED = await attributionScript();
const KEY = "leadintake.attribution";
const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.parse("2026-03-01T10:00:00.000Z");

type Touch = Record<string, string>;
type Attribution = { first: Touch; last: Touch; fields: Record<string, string> } | null;
type Api = { consent: () => void; attribution: () => Attribution; consented?: boolean; [other: string]: unknown };

type Visit = {
  href: string;
  referrer?: string;
  at?: number;
  storage?: Map<string, string> | "throws" | "full";
  consent?: "wait";
  api?: Record<string, unknown>;
};

/** One page load: runs the served script in a fresh VM; returns `window.LeadIntake`. */
function visit(options: Visit): Api {
  const location = new URL(options.href);
  const store = options.storage instanceof Map ? options.storage : new Map<string, string>();
  const localStorage = {
    getItem: (key: string) => store.get(key) ?? null,
    setItem: (key: string, value: string) => {
      if (options.storage === "full") throw new Error("QuotaExceededError");
      store.set(key, String(value));
    },
  };
  const script = { getAttribute: (name: string) => (name === "data-consent" ? (options.consent ?? null) : null) };
  const document = {
    currentScript: script,
    referrer: options.referrer ?? "",
    getElementsByTagName: () => [],
    addEventListener: () => undefined,
  };
  const window: Record<string, unknown> = { location: { href: location.href, search: location.search, host: location.host } };
  if (options.storage === "throws")
    Object.defineProperty(window, "localStorage", {
      get: () => {
        throw new Error("SecurityError");
      },
    });
  else window.localStorage = localStorage;
  if (options.api) window.LeadIntake = options.api;
  const now = options.at ?? T0;
  class FixedDate extends Date {
    constructor(...args: [number?]) {
      super(args.length ? args[0]! : now);
    }
  }
  // The host's JSON: attribution() returns copies made with it, comparable with this realm's objects.
  vm.runInNewContext(SERVED, { window, document, Date: FixedDate, JSON });
  return window.LeadIntake as Api;
}

const stored = (storage: Map<string, string>) => JSON.parse(storage.get(KEY)!) as { v: number; first: Touch; last: Touch };

describe("the served file", () => {
  test("is the source without its comments, at most 3 KB gzipped, and parses", async () => {
    const file = await widgetFile("attribution.js");
    assert.equal(file?.type, "text/javascript");
    assert.equal(String(file?.body), SERVED);
    assert.equal(SERVED, compactScript(await readFile(ATTRIBUTION_SOURCE, "utf8")));
    const gzipped = gzipSync(SERVED, { level: 9 }).length;
    assert.ok(gzipped <= 3072, `${gzipped} bytes gzipped`);
    assert.doesNotThrow(() => new vm.Script(SERVED));
    // No comment is left but the header; no request is ever sent.
    assert.deepEqual(
      SERVED.split("\n").filter((line) => line.startsWith("//") || line.startsWith("/*")),
      [SERVED.split("\n")[0]],
    );
    assert.doesNotMatch(SERVED, /fetch\(|sendBeacon|XMLHttpRequest|document\.cookie|\.src\s*=/);
  });

  test("compactScript keeps code lines and drops comment lines and blocks", () => {
    const source = '/*\n * header\n */\n(function () {\n  // a comment\n  var a = "x"; /* not alone */\n\n  /* one line */\n})();\n';
    assert.equal(compactScript(source).split("\n").slice(1).join("\n"), '(function () {\nvar a = "x"; /* not alone */\n})();\n');
  });

  test("both web-form snippets load it, with or without the challenge", () => {
    const tag = '<script src="https://leads.example.net/api/widget/attribution.js" async></script>';
    for (const challenge of [true, false]) {
      const form = { id: "form_abc", challenge };
      assert.ok(htmlSnippet(form, "https://leads.example.net").includes(tag));
      assert.ok(fetchSnippet(form, "https://leads.example.net").includes(tag));
    }
  });
});

describe("first and last touch", () => {
  test("the first visit is both touches: campaign parameters, the landing page without its fragment, the time", () => {
    const storage = new Map<string, string>();
    const api = visit({ href: "https://www.acme.test/pricing?utm_source=google&utm_medium=cpc&gclid=abc&x=1#plans", storage });
    const touch = {
      utm_source: "google",
      utm_medium: "cpc",
      gclid: "abc",
      landing_page: "https://www.acme.test/pricing?utm_source=google&utm_medium=cpc&gclid=abc&x=1",
      seen_at: "2026-03-01T10:00:00.000Z",
    };
    assert.deepEqual(api.attribution()?.first, touch);
    assert.deepEqual(api.attribution()?.last, touch);
    assert.deepEqual(api.attribution()?.fields, {
      utm_source: "google",
      utm_medium: "cpc",
      gclid: "abc",
      landing_page: touch.landing_page,
      last_seen_at: touch.seen_at,
      first_utm_source: "google",
      first_utm_medium: "cpc",
      first_gclid: "abc",
      first_landing_page: touch.landing_page,
      first_seen_at: touch.seen_at,
    });
    assert.deepEqual(stored(storage), { v: 1, first: touch, last: touch });
  });

  test("internal navigation, a reload and a direct visit keep the last touch; an outside referrer or a campaign replaces it", () => {
    const storage = new Map<string, string>();
    visit({ href: "https://acme.test/?utm_source=google&utm_campaign=spring", storage });
    const first = stored(storage).first;
    visit({ href: "https://acme.test/contact", referrer: "https://acme.test/?utm_source=google", at: T0 + 1000, storage });
    visit({ href: "https://acme.test/contact", at: T0 + 2000, storage });
    assert.deepEqual(stored(storage), { v: 1, first, last: first });

    // Another site (another host; a port makes another host too) links here: a new last touch.
    const referred = visit({
      href: "https://acme.test/blog",
      referrer: "https://news.example/story?id=1#comments",
      at: T0 + DAY,
      storage,
    }).attribution();
    assert.deepEqual(referred?.first, first);
    assert.deepEqual(referred?.last, {
      landing_page: "https://acme.test/blog",
      referrer: "https://news.example/story?id=1",
      seen_at: new Date(T0 + DAY).toISOString(),
    });
    assert.equal(
      visit({ href: "https://acme.test/", referrer: "https://acme.test:8443/", storage }).attribution()?.last.referrer,
      "https://acme.test:8443/",
    );

    // A campaign link inside the site (no outside referrer) is a new last touch too.
    const tagged = visit({
      href: "https://acme.test/offer?fbclid=F1",
      referrer: "https://acme.test/",
      at: T0 + 2 * DAY,
      storage,
    }).attribution();
    assert.deepEqual(tagged?.last, {
      fbclid: "F1",
      landing_page: "https://acme.test/offer?fbclid=F1",
      seen_at: new Date(T0 + 2 * DAY).toISOString(),
    });
    assert.deepEqual(tagged?.first, first);
  });

  test("the first touch is kept 90 days; the next visit after that starts over", () => {
    const storage = new Map<string, string>();
    visit({ href: "https://acme.test/?utm_source=google", storage });
    const kept = visit({ href: "https://acme.test/?utm_source=bing", at: T0 + 90 * DAY - 1, storage }).attribution();
    assert.equal(kept?.first.utm_source, "google");
    assert.equal(kept?.last.utm_source, "bing");
    const later = visit({ href: "https://acme.test/contact", at: T0 + 90 * DAY, storage }).attribution();
    const touch = { landing_page: "https://acme.test/contact", seen_at: new Date(T0 + 90 * DAY).toISOString() };
    assert.deepEqual(later, {
      first: touch,
      last: touch,
      fields: {
        landing_page: touch.landing_page,
        last_seen_at: touch.seen_at,
        first_landing_page: touch.landing_page,
        first_seen_at: touch.seen_at,
      },
    });
  });

  test("a stored record of another version, broken JSON or a bad date starts over; stored values are cleaned again", () => {
    for (const saved of [
      '{"v":2,"first":{"seen_at":"2026-03-01T09:00:00Z"},"last":{}}',
      "{not json",
      '{"v":1,"first":{"seen_at":"soon"}}',
      "null",
    ]) {
      const storage = new Map([[KEY, saved]]);
      assert.equal(visit({ href: "https://acme.test/?utm_source=x", storage }).attribution()?.first.utm_source, "x", saved);
    }
    const storage = new Map([
      [
        KEY,
        JSON.stringify({ v: 1, first: { seen_at: "2026-03-01T09:00:00.000Z", utm_source: "a\r\nb", gclid: 7, evil: "x" }, last: "nope" }),
      ],
    ]);
    const record = visit({ href: "https://acme.test/", storage }).attribution();
    assert.deepEqual(record?.first, { utm_source: "a b", seen_at: "2026-03-01T09:00:00.000Z" });
    assert.deepEqual(record?.last, {});
  });
});

describe("values", () => {
  test("one line, trimmed, capped without splitting a character; empty and malformed values are left out; names in any case, first value wins", () => {
    const long = "x".repeat(199) + "😀";
    const page = `https://acme.test/${"p".repeat(1200)}`;
    const api = visit({
      href: `${page}?UTM_Source=%20News%0D%0Aletter%00%20&utm_source=second&utm_medium=&utm_campaign=%E0%A4%A&utm_term=${encodeURIComponent(long)}&utm_content=a+b`,
      referrer: `https://ref.test/${"r".repeat(1200)}`,
    });
    const last = api.attribution()!.last;
    assert.equal(last.utm_source, "News letter");
    assert.equal(last.utm_medium, undefined);
    assert.equal(last.utm_campaign, undefined);
    assert.equal(last.utm_term, "x".repeat(199));
    assert.equal(last.utm_content, "a b");
    assert.equal(last.landing_page, page.slice(0, 1000));
    assert.equal(last.referrer?.length, 1000);
    // eslint-disable-next-line no-control-regex -- no control character may be left
    for (const value of Object.values(last)) assert.ok(value.isWellFormed() && !/[\u0000-\u001f]/.test(value));
  });
});

describe("storage", () => {
  test("disabled (the getter throws) or full: the page still gets its attribution from memory, and nothing throws", () => {
    for (const storage of ["throws", "full"] as const) {
      const api = visit({ href: "https://acme.test/?utm_source=google", storage });
      assert.equal(api.attribution()?.first.utm_source, "google");
      assert.equal(api.attribution()?.fields.first_utm_source, "google");
    }
  });
});

describe("consent and the LeadIntake object", () => {
  test('data-consent="wait": nothing stored and no attribution until consent(), then this visit is recorded', () => {
    const storage = new Map<string, string>();
    const api = visit({ href: "https://acme.test/?utm_source=google", consent: "wait", storage });
    assert.equal(api.attribution(), null);
    assert.equal(storage.size, 0);
    api.consent();
    assert.equal(api.attribution()?.first.utm_source, "google");
    assert.equal(stored(storage).first.utm_source, "google");
    api.consent();
    assert.equal(storage.size, 1);
  });

  test("consent given before the script loaded (LeadIntake.consented = true) starts at once; other members are kept", () => {
    const own = () => "site's";
    const storage = new Map<string, string>();
    const api = visit({ href: "https://acme.test/?utm_source=google", consent: "wait", storage, api: { consented: true, own } });
    assert.equal(api.own, own);
    assert.equal(api.attribution()?.first.utm_source, "google");
    assert.equal(storage.size, 1);
  });

  test("loaded twice on one page, the second copy changes nothing", () => {
    const storage = new Map<string, string>();
    const api = visit({ href: "https://acme.test/?utm_source=google", storage });
    const { consent, attribution } = api;
    const again = visit({ href: "https://acme.test/?utm_source=bing", storage, api });
    assert.equal(again.consent, consent);
    assert.equal(again.attribution, attribution);
    assert.equal(stored(storage).last.utm_source, "google");
  });
});
