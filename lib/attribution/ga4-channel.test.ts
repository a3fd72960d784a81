import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { CHANNEL_GROUPS } from "./channel-groups";
import { ga4Channel, GROUP_OF_GA4_CHANNEL, sourceCategory, type Ga4Channel } from "./ga4-channel";

// Each row is one rule of "[GA4] Default channel group" (support.google.com/analytics/answer/
// 9756891, channels for manual traffic), in its published order, with a visit that matches it
// and none before it; the last column is the group we count it in (docs/attribution.md).
const PUBLISHED: [source: string, medium: string, campaign: string | null, channel: Ga4Channel][] = [
  // Source exactly matches "(direct)" AND Medium is one of ("(not set)", "(none)").
  ["(direct)", "(none)", null, "Direct"],
  ["(direct)", "(not set)", null, "Direct"],
  // Campaign Name contains "cross-network".
  ["google", "cpc", "Spring cross-network", "Cross-network"],
  // (Source matches a list of shopping sites OR Campaign Name matches ^(.*(([^a-df-z]|^)shop|shopping).*)$)
  // AND Medium matches ^(.*cp.*|ppc|retargeting|paid.*)$.
  ["amazon", "cpc", null, "Paid Shopping"],
  ["newsletter-partner", "paid", "summer-shop", "Paid Shopping"],
  ["google", "ppc", "Shopping spree", "Paid Shopping"],
  // Source matches a list of search sites AND Medium matches the paid regex.
  ["google", "cpc", "spring", "Paid Search"],
  ["bing", "retargeting", null, "Paid Search"],
  ["duckduckgo", "paidsearch", null, "Paid Search"],
  // Source matches a list of social sites AND Medium matches the paid regex.
  ["facebook", "cpc", null, "Paid Social"],
  ["linkedin.com", "paid_social", null, "Paid Social"],
  ["l.instagram.com", "cpm_social", null, "Paid Social"],
  // Source matches a list of video sites AND Medium matches the paid regex.
  ["youtube", "cpv", null, "Paid Video"],
  // Medium is one of ("display", "banner", "expandable", "interstitial", "cpm").
  ["adnetwork", "display", null, "Display"],
  ["adnetwork", "banner", null, "Display"],
  ["adnetwork", "interstitial", null, "Display"],
  // cpm matches the paid regex too, but Display is decided first for a source on no list.
  ["adnetwork", "cpm", null, "Display"],
  // Medium matches the paid regex (any other source).
  ["adnetwork", "cpc", null, "Paid Other"],
  ["podcast-sponsor", "paid", null, "Paid Other"],
  // Source matches a list of shopping sites OR Campaign Name matches the shop regex.
  ["ebay.com", "referral", null, "Organic Shopping"],
  ["partner", "email", "eshop-news", "Organic Shopping"],
  // "shop" after a letter other than "e" is no shop: a workshop.
  ["partner", "email", "workshop-invite", "Email"],
  // Source matches a list of social sites OR Medium is one of the social media.
  ["t.co", "referral", null, "Organic Social"],
  ["partner", "social-network", null, "Organic Social"],
  ["partner", "sm", null, "Organic Social"],
  // Source matches a list of video sites OR Medium matches ^(.*video.*)$.
  ["vimeo.com", "referral", null, "Organic Video"],
  ["partner", "webinar-video", null, "Organic Video"],
  // Source matches a list of search sites OR Medium exactly matches organic.
  ["google", "organic", null, "Organic Search"],
  ["ecosia.org", "referral", null, "Organic Search"],
  ["some-engine", "organic", null, "Organic Search"],
  // Medium is one of ("referral", "app", "link").
  ["partner.example", "referral", null, "Referral"],
  ["partner.example", "link", null, "Referral"],
  // Source = email|e-mail|e_mail|e mail OR Medium = the same.
  ["newsletter", "email", null, "Email"],
  ["e-mail", "(not set)", null, "Email"],
  ["crm", "e_mail", null, "Email"],
  // Medium = affiliate.
  ["partner", "affiliate", null, "Affiliates"],
  // Medium exactly matches audio.
  ["podcast", "audio", null, "Audio"],
  // Source exactly matches sms OR Medium exactly matches sms.
  ["sms", "(not set)", null, "SMS"],
  ["twilio", "sms", null, "SMS"],
  // Medium ends with "push" OR contains "mobile" or "notification" OR Source = firebase.
  ["app", "web-push", null, "Mobile Push Notifications"],
  ["app", "mobile-alert", null, "Mobile Push Notifications"],
  ["firebase", "(not set)", null, "Mobile Push Notifications"],
  // Nothing matched.
  ["partner", "print", null, "Unassigned"],
  ["(direct)", "qr-code", null, "Unassigned"],
];

describe("GA4's default channel group, rule by rule", () => {
  for (const [source, medium, campaign, channel] of PUBLISHED) {
    test(`${source} / ${medium}${campaign ? ` / ${campaign}` : ""} → ${channel}`, () => {
      assert.equal(ga4Channel({ source, medium, campaign }), channel);
    });
  }

  test("matching is case-insensitive, as GA4's is", () => {
    assert.equal(ga4Channel({ source: "Google", medium: "CPC", campaign: null }), "Paid Search");
    assert.equal(ga4Channel({ source: "Newsletter", medium: "Email", campaign: null }), "Email");
    assert.equal(ga4Channel({ source: "FACEBOOK.COM", medium: "Social", campaign: null }), "Organic Social");
  });

  test("every GA4 channel is counted in one of our ten groups", () => {
    const channels = new Set(PUBLISHED.map(([, , , channel]) => channel));
    for (const channel of channels) assert.ok(CHANNEL_GROUPS.includes(GROUP_OF_GA4_CHANNEL[channel]), channel);
    assert.equal(Object.keys(GROUP_OF_GA4_CHANNEL).length, channels.size, "the table covers every channel the rules give");
  });

  test("any text gives a channel, never an exception (generated input)", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.option(fc.string()), (source, medium, campaign) => {
        const channel = ga4Channel({ source, medium, campaign });
        assert.ok(CHANNEL_GROUPS.includes(GROUP_OF_GA4_CHANNEL[channel]));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe("sourceCategory", () => {
  const cases: [string, ReturnType<typeof sourceCategory>][] = [
    ["google", "search"],
    ["www.google.co.uk", "search"],
    ["google.de", "search"],
    ["m.facebook.com", "social"],
    ["lm.facebook.com", "social"],
    ["news.ycombinator.com", "social"],
    ["music.youtube.com", "video"],
    ["www.youtube.com", "video"],
    ["amazon.co.uk", "shopping"],
    ["ebay.com.au", "shopping"],
    ["example.com", null],
    ["partner.example", null],
    // A listed name as a subdomain of somebody else's site is not that site.
    ["facebook.example.com", null],
    ["", null],
  ];
  for (const [source, category] of cases)
    test(`${JSON.stringify(source)} → ${category}`, () => assert.equal(sourceCategory(source), category));
});
