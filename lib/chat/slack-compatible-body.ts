import { extraFactsOf, factsOf, headingOf, type ChatMessage } from "./chat-message";
import { cutEscaped, escapeMarkdown, lineOf, withoutBidiControls } from "./chat-text";

// A Slack-compatible server's body (docs/notifications.md "Slack-compatible"): Mattermost
// and Rocket.Chat take Slack's incoming-webhook `text`, rendered as Markdown, but not Block
// Kit (Mattermost "Incoming webhooks", Rocket.Chat "Integrations"). A lead's values are
// Markdown-escaped (chat-text.ts escapeMarkdown): no mention (`\@channel`), link or emphasis.

/** Mattermost's limit on a post (its default MaxPostSize, 16,383 characters); Rocket.Chat's default is 5,000: the lower. */
export const SLACK_COMPATIBLE_LIMITS = { text: 5000 } as const;

/** Each line's share of the 5,000 (name and facts, an extra field's label and value): 7 × 250 + 5 × 500 and the link fit. */
const LINE = 250;
const EXTRA_LABEL = 50;
const EXTRA_VALUE = 450;

export type SlackCompatibleBody = { text: string };

const safe = (text: string, max: number) => cutEscaped(withoutBidiControls(lineOf(text)), max, escapeMarkdown);

export function slackCompatibleBody(message: ChatMessage, now: Date): SlackCompatibleBody {
  const heading = headingOf(message.event);
  const lead = message.lead;
  const lines = lead
    ? [
        `**${heading}: ${safe(lead.name || "(no name)", LINE)}**`,
        ...factsOf(lead, now).map((fact) => `${fact.label}: ${safe(fact.value, LINE)}`),
        ...extraFactsOf(lead).map((fact) => `${safe(fact.label, EXTRA_LABEL)}: ${safe(fact.value, EXTRA_VALUE)}`),
        `[Open the lead](${message.link})`,
      ]
    : [`**${heading}** from ${safe(message.teamName, 200)}`, `[Open the settings](${message.link})`];
  return { text: lines.join("\n") };
}
