import { DISCORD_USER_ID, extraFactsOf, factsOf, headingOf, mentionWords, type ChatMessage } from "./chat-message";
import { cutEscaped, escapeMarkdown, lineOf, orDash, withoutBidiControls } from "./chat-text";

// Discord's body (docs/notifications.md "Discord"): one embed, as "Execute Webhook" takes it
// (discord.com/developers/docs/resources/webhook#execute-webhook, resources/message#embed-object).
// `allowed_mentions: {"parse": []}` so nothing in it pings anyone, except an assignment's
// (or a repeat submission's) owner, named by their user id in `allowed_mentions.users`; every value of a lead is
// Markdown-escaped (chat-text.ts), so nothing of theirs is a mention, link or formatting.

/** Discord's documented limits ("Embed Limits"; content 2,000 characters). */
export const DISCORD_LIMITS = {
  content: 2000,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  /** Title, description, field names and values, footer and author name together. */
  total: 6000,
} as const;

export type DiscordBody = {
  content?: string;
  embeds: {
    title: string;
    url?: string;
    description?: string;
    fields?: { name: string; value: string; inline?: boolean }[];
    footer?: { text: string };
  }[];
  allowed_mentions: { parse: never[]; users?: string[] };
};

const safe = (text: string, max: number) => cutEscaped(withoutBidiControls(text), max, escapeMarkdown);

/** An extra field's share of the embed's 6,000 characters (5 of them, beside the rest). */
const EXTRA_VALUE = 600;

export function discordBody(message: ChatMessage, now: Date): DiscordBody {
  const heading = headingOf(message.event);
  const lead = message.lead;
  if (!lead) {
    return {
      embeds: [
        {
          title: safe(`${heading} from ${lineOf(message.teamName)}`, DISCORD_LIMITS.title),
          url: message.link,
          description: "This channel will hear of the team's leads.",
        },
      ],
      allowed_mentions: { parse: [] },
    };
  }
  const fields = [
    ...factsOf(lead, now).map((fact) => ({ name: fact.label, value: orDash(safe(lineOf(fact.value), 200)), inline: true })),
    ...extraFactsOf(lead).map((fact) => ({
      name: orDash(safe(lineOf(fact.label), 100)),
      value: orDash(safe(fact.value, EXTRA_VALUE)),
    })),
  ].slice(0, DISCORD_LIMITS.fields);
  const owner = lead.owner?.discordUserId;
  const words = mentionWords(message.event);
  const mention = words && owner && DISCORD_USER_ID.test(owner) ? owner : null;
  return {
    ...(mention ? { content: `${words} <@${mention}>` } : {}),
    embeds: [
      {
        title: safe(`${heading}: ${lineOf(lead.name) || "(no name)"}`, DISCORD_LIMITS.title),
        url: message.link,
        description: `[Open the lead](${message.link})`,
        fields,
        footer: { text: safe(lineOf(message.teamName), 200) },
      },
    ],
    allowed_mentions: mention ? { parse: [], users: [mention] } : { parse: [] },
  };
}
