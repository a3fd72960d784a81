import assert from "node:assert/strict";
import { test } from "node:test";
import { ACCEPTED_SHAPES, recogniseChatUrl, type ChatPlatform } from "./chat-platforms";
import { ANY_LEAD, newLeadMatches, parseNewLeadFilter } from "./new-lead-filter";

// A pasted incoming-webhook URL and what it is taken for (docs/notifications.md
// "Destinations"): one row per shape each platform's documentation gives, and the refusals.

const recognised: [string, string, ChatPlatform][] = [
  ["Slack", "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX", "slack"],
  ["Discord", "https://discord.com/api/webhooks/1234567890/abc-DEF_ghi", "discord"],
  ["Discord, versioned API", "https://discord.com/api/v10/webhooks/1234567890/abcDEF", "discord"],
  ["Discord, older host", "https://discordapp.com/api/webhooks/1234567890/abcDEF", "discord"],
  [
    "Teams Workflows on Logic Apps",
    "https://prod-12.westus.logic.azure.com:443/workflows/0123abcd/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=abc",
    "teams",
  ],
  [
    "Teams Workflows on Power Platform",
    "https://default0123.ab.environment.api.powerplatform.com:443/powerautomate/automations/direct/workflows/0123abcd/triggers/manual/paths/invoke?api-version=1&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=abc",
    "teams",
  ],
  ["Google Chat", "https://chat.googleapis.com/v1/spaces/AAAAbbbb/messages?key=k-1&token=t-1", "google-chat"],
];

for (const [name, url, platform] of recognised) {
  test(`recognises ${name}`, () => {
    const result = recogniseChatUrl(url);
    assert.deepEqual(result.ok && result.platform, platform);
  });
}

const refused: [string, string][] = [
  ["not a URL", "hooks.slack.com/services/T/B/x"],
  ["plain http to Slack", "http://hooks.slack.com/services/T/B/x"],
  ["a Slack URL without its secret", "https://hooks.slack.com/services/T0/B0"],
  ["a Slack look-alike host", "https://hooks.slack.com.evil.example/services/T/B/x"],
  ["Discord without a token", "https://discord.com/api/webhooks/123"],
  ["Teams without its signature", "https://prod-1.westus.logic.azure.com/workflows/1/triggers/manual/paths/invoke?api-version=1"],
  ["the retired Office 365 connector", "https://contoso.webhook.office.com/webhookb2/abc/IncomingWebhook/def/ghi"],
  ["Google Chat without its token", "https://chat.googleapis.com/v1/spaces/AAAA/messages?key=k"],
  ["user info", "https://user:pass@hooks.slack.com/services/T/B/x"],
  ["any other host", "https://example.com/hook"],
];

for (const [name, url] of refused) {
  test(`refuses ${name}, naming the accepted shapes`, () => {
    assert.deepEqual(recogniseChatUrl(url), { ok: false, message: ACCEPTED_SHAPES });
  });
}

test("the refusal names every platform's shape", () => {
  for (const shape of [
    "hooks.slack.com/services",
    "logic.azure.com",
    "powerplatform.com",
    "discord.com/api/webhooks",
    "chat.googleapis.com/v1/spaces",
    "Slack-compatible",
  ]) {
    assert.ok(ACCEPTED_SHAPES.includes(shape), shape);
  }
});

test("a platform chosen for another platform's URL is refused, saying what the URL is", () => {
  const result = recogniseChatUrl("https://discord.com/api/webhooks/1/abc", { chosen: "slack" });
  assert.equal(result.ok, false);
  assert.match(!result.ok ? result.message : "", /^This is a Discord URL, not Slack\./);
});

test("a Slack-compatible server: chosen, at a public https host that is not a known platform's", () => {
  assert.deepEqual(recogniseChatUrl("https://chat.example.org/hooks/abc123", { chosen: "slack-compatible" }), {
    ok: true,
    platform: "slack-compatible",
    url: "https://chat.example.org/hooks/abc123",
  });
  assert.equal(recogniseChatUrl("https://chat.example.org/hooks/abc123").ok, false);
  assert.equal(recogniseChatUrl("http://chat.example.org/hooks/abc123", { chosen: "slack-compatible" }).ok, false);
  assert.equal(recogniseChatUrl("https://evil.slack.com/hooks/abc", { chosen: "slack-compatible" }).ok, false);
  assert.equal(recogniseChatUrl("https://localhost/hooks/abc", { chosen: "slack-compatible" }).ok, false);
});

test("with local targets allowed, a local test server is taken as the platform its path has", () => {
  const local = recogniseChatUrl("http://127.0.0.1:4010/services/T0/B0/secret", { allowLocal: true });
  assert.deepEqual(local, { ok: true, platform: "slack", url: "http://127.0.0.1:4010/services/T0/B0/secret" });
  assert.equal(recogniseChatUrl("http://127.0.0.1:4010/services/T0/B0/secret").ok, false);
  assert.equal(recogniseChatUrl("http://127.0.0.1:4010/services/T0/B0/secret", { allowLocal: true, chosen: "discord" }).ok, false);
  assert.equal(recogniseChatUrl("http://127.0.0.1:4010/anything", { allowLocal: true, chosen: "slack-compatible" }).ok, true);
});

test("a new-lead filter: empty lists are any, each list one of its values", () => {
  const lead = { sourceId: "s1", formId: "f1", connectionId: null, apiKeyId: null, channelGroup: "Paid Search", ownerId: null };
  assert.equal(newLeadMatches(ANY_LEAD, lead), true);
  assert.equal(newLeadMatches({ ...ANY_LEAD, formIds: ["f1", "f2"] }, lead), true);
  assert.equal(newLeadMatches({ ...ANY_LEAD, formIds: ["f2"] }, lead), false);
  assert.equal(newLeadMatches({ ...ANY_LEAD, connectionIds: ["c1"] }, lead), false);
  assert.equal(newLeadMatches({ ...ANY_LEAD, channelGroups: ["Paid Search"], sourceIds: ["s1"] }, lead), true);
  assert.deepEqual(parseNewLeadFilter("not json"), ANY_LEAD);
  assert.deepEqual(parseNewLeadFilter('{"ownerIds":["u1"]}'), { ...ANY_LEAD, ownerIds: ["u1"] });
});
