import { extraFactsOf, factsOf, headingOf, mentionWords, SLACK_USER_ID, type ChatMessage } from "./chat-message";
import { cutEscaped, escapeSlack, lineOf, withoutBidiControls } from "./chat-text";

// Slack's body (docs/notifications.md "Slack"): Block Kit, as an incoming webhook takes it
// (docs.slack.dev "Sending messages using incoming webhooks", "Blocks"). A lead's values go
// only into plain_text objects, never mrkdwn, and are escaped (& < >) as Slack asks of all
// text, so nothing of theirs can be a mention, a link or formatting. The one mrkdwn text is
// the app's own: an assignment's or a repeat submission's mention `<@U…>` of the owner's Slack
// member id.

/** Slack's documented limits (docs.slack.dev, reference/block-kit/blocks and composition objects). */
export const SLACK_LIMITS = {
  /** header block: plain_text, 150 characters. */
  header: 150,
  /** section block: text 3,000 characters; fields at most 10, 2,000 characters each. */
  sectionText: 3000,
  fields: 10,
  field: 2000,
  /** button: text 75 characters, url 3,000. */
  buttonText: 75,
  url: 3000,
  /** A message: at most 50 blocks. The top-level text (the notification's) is kept to a section's 3,000. */
  blocks: 50,
} as const;

export type SlackBody = { text: string; blocks: Record<string, unknown>[] };

const plain = (text: string, max: number) => ({
  type: "plain_text",
  text: cutEscaped(withoutBidiControls(text), max, escapeSlack),
  emoji: false,
});

/** A lead's value on one line. */
const value = (text: string) => lineOf(text);

export function slackBody(message: ChatMessage, now: Date): SlackBody {
  const heading = headingOf(message.event);
  const lead = message.lead;
  const title = lead ? `${heading}: ${value(lead.name) || "(no name)"}` : `${heading} from ${message.teamName}`;
  const blocks: Record<string, unknown>[] = [{ type: "header", text: plain(title, SLACK_LIMITS.header) }];
  if (lead) {
    const facts = factsOf(lead, now).slice(0, SLACK_LIMITS.fields);
    blocks.push({
      type: "section",
      fields: facts.map((fact) => plain(`${fact.label}: ${value(fact.value)}`, SLACK_LIMITS.field)),
    });
    const words = mentionWords(message.event);
    const mention = words && lead.owner?.slackUserId && SLACK_USER_ID.test(lead.owner.slackUserId);
    if (mention) blocks.push({ type: "section", text: { type: "mrkdwn", text: `${words} <@${lead.owner!.slackUserId}>` } });
    for (const fact of extraFactsOf(lead)) {
      // A contact form's message keeps its line breaks: plain_text shows them as typed.
      blocks.push({ type: "section", text: plain(`${lineOf(fact.label)}: ${fact.value}`, SLACK_LIMITS.sectionText) });
    }
  } else {
    blocks.push({ type: "section", text: plain(`This channel will hear of ${message.teamName}'s leads.`, SLACK_LIMITS.sectionText) });
  }
  blocks.push({
    type: "actions",
    elements: [
      {
        type: "button",
        text: { type: "plain_text", text: lead ? "Open the lead" : "Open the settings", emoji: false },
        url: message.link.slice(0, SLACK_LIMITS.url),
      },
    ],
  });
  return { text: cutEscaped(withoutBidiControls(title), SLACK_LIMITS.sectionText, escapeSlack), blocks };
}
