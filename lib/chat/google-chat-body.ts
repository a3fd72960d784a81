import { extraFactsOf, factsOf, headingOf, type ChatMessage } from "./chat-message";
import { cutEscaped, escapeHtml, lineOf, orDash, withoutBidiControls } from "./chat-text";

// Google Chat's body (docs/notifications.md "Google Chat"): a message with one card
// (`cardsV2`), as a space's incoming webhook takes it (developers.google.com/workspace/chat/
// quickstart/webhooks, api/reference/rest/v1/cards). A lead's values are in card widgets
// only, never the message's `text` (where `<users/…>` is a mention and `<url|text>` a
// link), and HTML-escaped, the card text's format (developers.google.com/workspace/chat/
// format-messages#card-formatting), so nothing of theirs is a mention, link or formatting.

/** Google Chat's documented limits: a message at most 32,000 bytes (text 4,096 characters); ours per value. */
export const GOOGLE_CHAT_LIMITS = { messageBytes: 32_000, value: 1000, extraValue: 3000, title: 200 } as const;

export type GoogleChatBody = { cardsV2: { cardId: string; card: Record<string, unknown> }[] };

const html = (text: string, max: number) => cutEscaped(withoutBidiControls(text), max, escapeHtml);

export function googleChatBody(message: ChatMessage, now: Date): GoogleChatBody {
  const heading = headingOf(message.event);
  const lead = message.lead;
  const title = lead
    ? `<b>${html(lineOf(lead.name) || "(no name)", GOOGLE_CHAT_LIMITS.title)}</b>`
    : html(lineOf(message.teamName), GOOGLE_CHAT_LIMITS.title);
  const widgets: Record<string, unknown>[] = lead
    ? [
        { textParagraph: { text: title } },
        ...factsOf(lead, now).map((fact) => ({
          decoratedText: { topLabel: fact.label, text: orDash(html(lineOf(fact.value), GOOGLE_CHAT_LIMITS.value)), wrapText: true },
        })),
        ...extraFactsOf(lead).map((fact) => ({
          decoratedText: {
            topLabel: html(lineOf(fact.label), 100),
            text: orDash(html(fact.value, GOOGLE_CHAT_LIMITS.extraValue).replaceAll("\n", "<br>")),
            wrapText: true,
          },
        })),
      ]
    : [{ textParagraph: { text: `${title}: this space will hear of the team's leads.` } }];
  widgets.push({
    buttonList: { buttons: [{ text: lead ? "Open the lead" : "Open the settings", onClick: { openLink: { url: message.link } } }] },
  });
  return {
    cardsV2: [
      {
        cardId: lead ? `lead-${lead.id}` : "test",
        card: {
          // The header is the app's words alone: its text's format is not documented, so no lead's value goes there.
          header: { title: heading },
          sections: [{ widgets }],
        },
      },
    ],
  };
}
