import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { CHANNEL_GROUPS } from "./channel-groups";
import { ATTRIBUTION_FIELD_NAMES } from "./attribution-fields";
import { leadAttribution, leadChannelGroups, webHost, type AttributedFields } from "./lead-attribution";

const lead = (utm: Partial<AttributedFields> = {}, extraFields: Record<string, unknown> = {}): AttributedFields => ({
  utmSource: null,
  utmMedium: null,
  utmCampaign: null,
  utmTerm: null,
  utmContent: null,
  ...utm,
  extraFields,
});

describe("leadAttribution", () => {
  test("no field at all: a direct visit, first touch the same", () => {
    const attribution = leadAttribution(lead());
    assert.equal(attribution.last.channelGroup, "Direct");
    assert.equal(attribution.firstKnown, false);
    assert.deepEqual(attribution.first, attribution.last);
    assert.equal(attribution.last.source, null);
  });

  test("the spec's utm_* fields are the last touch; first_* the first; their times kept", () => {
    const attribution = leadAttribution(
      lead(
        { utmSource: "newsletter", utmMedium: "email", utmCampaign: "march" },
        {
          first_utm_source: "google",
          first_utm_medium: "cpc",
          first_utm_campaign: "spring",
          first_gclid: "Cj0KCQ",
          first_landing_page: "https://acme.example/pricing?utm_source=google",
          first_seen_at: "2026-11-02T10:00:00.000Z",
          landing_page: "https://acme.example/contact",
          last_seen_at: "2026-11-30T09:00:00.000Z",
        },
      ),
    );
    assert.equal(attribution.firstKnown, true);
    assert.deepEqual(
      [
        attribution.first.source,
        attribution.first.medium,
        attribution.first.campaign,
        attribution.first.channelGroup,
        attribution.first.at,
      ],
      ["google", "cpc", "spring", "Paid Search", "2026-11-02T10:00:00.000Z"],
    );
    assert.deepEqual(attribution.first.clickIds, [{ name: "gclid", value: "Cj0KCQ" }]);
    assert.deepEqual(
      [attribution.last.source, attribution.last.medium, attribution.last.campaign, attribution.last.channelGroup, attribution.last.at],
      ["newsletter", "email", "march", "Email", "2026-11-30T09:00:00.000Z"],
    );
    assert.equal(attribution.last.landingPage, "https://acme.example/contact");
  });

  test("a click id alone is the ad platform's visit (auto-tagging)", () => {
    const groups = (extra: Record<string, unknown>) => leadAttribution(lead({}, extra)).last;
    assert.deepEqual(
      [groups({ gclid: "x" }).source, groups({ gclid: "x" }).medium, groups({ gclid: "x" }).channelGroup],
      ["google", "cpc", "Paid Search"],
    );
    assert.equal(groups({ gbraid: "x" }).channelGroup, "Paid Search");
    assert.equal(groups({ wbraid: "x" }).channelGroup, "Paid Search");
    assert.equal(groups({ msclkid: "x" }).channelGroup, "Paid Search");
    assert.equal(groups({ ttclid: "x" }).channelGroup, "Paid Social");
    assert.equal(groups({ li_fat_id: "x" }).channelGroup, "Paid Social");
    // Facebook tags every outside link: organic unless the UTM fields say paid.
    assert.equal(groups({ fbclid: "x" }).channelGroup, "Organic Social");
    assert.equal(
      leadAttribution(lead({ utmSource: "facebook", utmMedium: "paid_social" }, { fbclid: "x" })).last.channelGroup,
      "Paid Social",
    );
  });

  test("the UTM fields win over a click id (the team's own tagging)", () => {
    assert.equal(leadAttribution(lead({ utmSource: "newsletter", utmMedium: "email" }, { gclid: "x" })).last.channelGroup, "Email");
  });

  test("an outside referrer: a search engine is organic search, a social site organic social, any other a referral", () => {
    const from = (referrer: string) => leadAttribution(lead({}, { referrer, landing_page: "https://acme.example/" })).last;
    assert.deepEqual(
      [from("https://www.google.com/").source, from("https://www.google.com/").channelGroup],
      ["google.com", "Organic Search"],
    );
    assert.equal(from("https://www.bing.com/search?q=acme").channelGroup, "Organic Search");
    assert.equal(from("https://l.facebook.com/").channelGroup, "Organic Social");
    assert.equal(from("https://www.linkedin.com/feed/").channelGroup, "Organic Social");
    assert.deepEqual(
      [from("https://blog.partner.example/post").source, from("https://blog.partner.example/post").channelGroup],
      ["blog.partner.example", "Referral"],
    );
    // The site's own pages are no referrer; text that is no http(s) URL is kept, never used.
    assert.equal(from("https://www.acme.example/pricing").channelGroup, "Direct");
    assert.equal(from("javascript:alert(1)").channelGroup, "Direct");
    assert.equal(from("javascript:alert(1)").referrer, "javascript:alert(1)");
  });

  test("values are one line, trimmed and capped; what is not text is ignored", () => {
    const attribution = leadAttribution(
      lead(
        { utmSource: "  news\r\nletter\u0000 ", utmMedium: "email" },
        { landing_page: `https://acme.example/${"a".repeat(3_000)}`, gclid: { nested: 1 } },
      ),
    );
    assert.equal(attribution.last.source, "news letter");
    assert.equal(attribution.last.landingPage!.length, 1_000);
    assert.ok(attribution.last.landingPage!.endsWith("…"));
    assert.deepEqual(attribution.last.clickIds, []);
  });

  test("webHost reads an http(s) URL's host as new URL does, and nothing else", () => {
    const cases: [string | null, string | null][] = [
      ["https://www.Google.com/search?q=1", "google.com"],
      ["HTTP://user:pw@Blog.Example.org:8080/path#x", "blog.example.org"],
      ["https://[2001:db8::1]:443/", "[2001:db8::1]"],
      ["https://acme.example?utm_source=x", "acme.example"],
      ["ftp://acme.example/", null],
      ["acme.example/page", null],
      ["https://", null],
      [null, null],
    ];
    for (const [url, host] of cases) assert.equal(webHost(url), host, String(url));
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (url) => {
        assert.equal(webHost(url), new URL(url).hostname.toLowerCase().replace(/^www\./, ""));
      }),
      { numRuns: 1_000 },
    );
  });

  test("extra fields that are not an object read as none", () => {
    for (const extraFields of [null, [], "text", 3]) assert.equal(leadAttribution({ ...lead(), extraFields }).last.channelGroup, "Direct");
  });

  test("ATTRIBUTION_FIELD_NAMES names the documented fields", () => {
    for (const name of [
      "landing_page",
      "referrer",
      "gclid",
      "li_fat_id",
      "last_seen_at",
      "first_utm_source",
      "first_landing_page",
      "first_referrer",
      "first_seen_at",
    ]) {
      assert.ok(ATTRIBUTION_FIELD_NAMES.includes(name), name);
    }
    assert.ok(!ATTRIBUTION_FIELD_NAMES.includes("utm_source"), "the spec's fields are not extra fields");
  });

  test("any fields give two of the ten groups, never an exception (generated input)", () => {
    const value = fc.oneof(fc.string(), fc.webUrl(), fc.integer(), fc.constant(null), fc.object());
    const extra = fc.dictionary(fc.constantFrom(...ATTRIBUTION_FIELD_NAMES, "other"), value);
    const utm = fc.option(fc.string(), { nil: null });
    fc.assert(
      fc.property(utm, utm, utm, extra, (utmSource, utmMedium, utmCampaign, extraFields) => {
        const groups = leadChannelGroups(lead({ utmSource, utmMedium, utmCampaign }, extraFields));
        assert.ok(CHANNEL_GROUPS.includes(groups.channelGroup));
        assert.ok(CHANNEL_GROUPS.includes(groups.firstChannelGroup));
      }),
      { numRuns: 2_000 },
    );
  });
});
