import { extraFactsOf, factsOf, headingOf, type ChatMessage } from "./chat-message";
import { cutEscaped, lineOf, withoutBidiControls } from "./chat-text";

// Microsoft Teams' body (docs/notifications.md "Microsoft Teams"): a Workflows webhook
// ("Post to a channel when a webhook request is received") takes a message whose one
// attachment is an Adaptive Card (learn.microsoft.com, microsoftteams/platform/
// webhooks-and-connectors/how-to/add-incoming-webhook and connectors-using); version 1.4,
// the card schema Teams renders everywhere (microsoftteams/platform/task-modules-and-cards/
// cards/cards-reference). A lead's values go only into TextRuns of a RichTextBlock, which
// Adaptive Cards never read as Markdown (TextBlock would), so nothing of theirs is a link
// or formatting; Teams mentions need an `msteams.entities` entry, which is never made.

/** Teams' documented limit on a message (28 KB, "Send messages", cards-reference); ours per value. */
export const TEAMS_LIMITS = { messageBytes: 28_000, value: 1000, extraValue: 2000, title: 200 } as const;
export const ADAPTIVE_CARD_VERSION = "1.4";

/**
 * A TextRun's text: no bidi controls, and a zero-width space after each "{" (a rule of one
 * character, so cutting cannot undo it), so a lead's value never holds "{{" and is never
 * read as one of Teams' {{DATE(…)}} / {{TIME(…)}} functions.
 */
const runText = (text: string, max: number) => cutEscaped(withoutBidiControls(text), max, (part) => part.replaceAll("{", "{\u200b"));

const run = (text: string, max: number, extra: Record<string, unknown> = {}) => ({ type: "TextRun", text: runText(text, max), ...extra });

/** One line of the card: the app's label in bold, then a lead's value. */
const line = (label: string, value: string, max: number) => ({
  type: "RichTextBlock",
  inlines: [run(`${label}: `, 100, { weight: "Bolder" }), run(value, max)],
});

export type TeamsBody = {
  type: "message";
  attachments: { contentType: "application/vnd.microsoft.card.adaptive"; contentUrl: null; content: Record<string, unknown> }[];
};

export function teamsCard(message: ChatMessage, now: Date): Record<string, unknown> {
  const heading = headingOf(message.event);
  const lead = message.lead;
  const body: Record<string, unknown>[] = [
    {
      type: "RichTextBlock",
      inlines: [
        run(lead ? `${heading}: ${lineOf(lead.name) || "(no name)"}` : `${heading} from ${lineOf(message.teamName)}`, TEAMS_LIMITS.title, {
          size: "Large",
          weight: "Bolder",
        }),
      ],
    },
  ];
  if (lead) {
    for (const fact of factsOf(lead, now)) body.push(line(fact.label, lineOf(fact.value), TEAMS_LIMITS.value));
    for (const fact of extraFactsOf(lead)) body.push(line(lineOf(fact.label).slice(0, 100), fact.value, TEAMS_LIMITS.extraValue));
  }
  return {
    $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
    type: "AdaptiveCard",
    version: ADAPTIVE_CARD_VERSION,
    body,
    actions: [{ type: "Action.OpenUrl", title: lead ? "Open the lead" : "Open the settings", url: message.link }],
  };
}

export function teamsBody(message: ChatMessage, now: Date): TeamsBody {
  return {
    type: "message",
    attachments: [{ contentType: "application/vnd.microsoft.card.adaptive", contentUrl: null, content: teamsCard(message, now) }],
  };
}
