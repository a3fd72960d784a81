import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { chatBodyProblems } from "../test-support/chat-body-checks";
import type { ChatMessage } from "./chat-message";
import { CHAT_PLATFORMS, type ChatPlatform } from "./chat-platforms";
import { renderChatBody } from "./render-chat-body";

// docs/chat-messages.md shows each platform's body for one new lead and one repeat submission,
// as the app's own builders render them (never written by hand): this test fails when a
// builder and the page differ. UPDATE_CHAT_EXAMPLES=1 rewrites the page's bodies.

const DOC = path.resolve(import.meta.dirname, "../../docs/chat-messages.md");
const now = new Date("2026-12-03T10:00:00Z");
const lead = {
  id: "CRM-LEAD-2026-00042",
  name: "Ada Lovelace",
  organization: "Analytical Engines Ltd",
  origin: "Website · Contact form",
  arrivedAt: "2026-12-03T09:57:00Z",
  owner: { id: "u_1", name: "Grace Hopper", slackUserId: "U012AB3CD", discordUserId: "123456789012345678" },
  email: "ada@example.com",
  phone: null,
  extra: { message: "Do you ship to Lisbon? <b>Asap</b> please" },
};
const link = "https://leads.example.com/t/acme/leads/CRM-LEAD-2026-00042";

const EXAMPLES: { title: string; message: ChatMessage }[] = [
  { title: "A new lead", message: { event: "lead.created", teamName: "Acme", link, lead } },
  {
    title: "A repeat submission",
    message: {
      event: "lead.submitted",
      teamName: "Acme",
      link,
      lead: {
        ...lead,
        origin: "Website · Pricing form",
        arrivedAt: "2026-12-03T09:59:00Z",
        repeat: { createdAt: "2026-11-28T14:03:00Z", lastSubmittedAt: null },
        extra: {},
      },
    },
  },
];

const PLATFORM_TITLES: Record<ChatPlatform, string> = {
  slack: "Slack (Block Kit)",
  teams: "Microsoft Teams (an Adaptive Card in a Workflows message)",
  discord: "Discord (an embed)",
  "google-chat": "Google Chat (a card)",
  "slack-compatible": "Slack-compatible (Mattermost, Rocket.Chat)",
};

const marker = (title: string, platform: ChatPlatform) => `<!-- example: ${title} / ${platform} -->`;

/** The page's body for one example and platform: the json block after its marker. */
function documented(page: string, title: string, platform: ChatPlatform): string | null {
  const at = page.indexOf(marker(title, platform));
  if (at < 0) return null;
  const block = /```json\n([\s\S]*?)\n```/.exec(page.slice(at));
  return block ? block[1]! : null;
}

const rendered = (message: ChatMessage, platform: ChatPlatform) => JSON.stringify(renderChatBody(platform, message, now), null, 2);

test("docs/chat-messages.md shows every platform's body as the builders render it, each within the platform's shape and limits", () => {
  if (process.env.UPDATE_CHAT_EXAMPLES) {
    let page = readFileSync(DOC, "utf8");
    for (const { title, message } of EXAMPLES)
      for (const platform of CHAT_PLATFORMS) {
        const start = page.indexOf(marker(title, platform));
        assert.ok(start >= 0, `the page has no marker ${marker(title, platform)}`);
        const block = /```json\n[\s\S]*?\n```/.exec(page.slice(start))!;
        const from = start + block.index;
        page = page.slice(0, from) + "```json\n" + rendered(message, platform) + "\n```" + page.slice(from + block[0].length);
      }
    writeFileSync(DOC, page);
  }
  const page = readFileSync(DOC, "utf8");
  for (const { title, message } of EXAMPLES)
    for (const platform of CHAT_PLATFORMS) {
      assert.ok(page.includes(`### ${PLATFORM_TITLES[platform]}`), `a section for ${platform}`);
      assert.deepEqual(chatBodyProblems(platform, renderChatBody(platform, message, now)), [], `${title} / ${platform} is a valid body`);
      const shown = documented(page, title, platform);
      assert.ok(shown, `${title} / ${platform}: the page shows a json body after ${marker(title, platform)}`);
      // Compared as JSON: Prettier may lay the page's blocks out differently.
      assert.deepEqual(
        JSON.parse(shown),
        renderChatBody(platform, message, now),
        `${title} / ${platform}: the page differs from the builder (UPDATE_CHAT_EXAMPLES=1 rewrites it)`,
      );
    }
});
