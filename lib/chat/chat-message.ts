import { z } from "zod";

// What a chat message says, before any platform's body (docs/notifications.md "The
// message"): written to the job when the event happens, rendered for its platform when it
// is sent (lib/chat/render-chat-body.ts). Contact details are in it only when the
// destination ticks them (off by default: a chat is often wider than the team).

export const CHAT_EVENTS = ["lead.created", "lead.assigned", "lead.submitted", "lead.reminder", "test"] as const;
export type ChatEvent = (typeof CHAT_EVENTS)[number];

/** A plain object whose own values are all strings. */
const isStringRecord = (value: unknown): boolean =>
  typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every((field) => typeof field === "string");

export const chatMessageSchema = z.object({
  event: z.enum(CHAT_EVENTS),
  teamName: z.string(),
  /** The lead's page (or, for a test message, the settings page): a path in a job, the whole URL once sent. */
  link: z.string(),
  lead: z
    .object({
      id: z.string(),
      name: z.string(),
      organization: z.string(),
      /** Where it came from: the source, and the web form, connection or API key. */
      origin: z.string(),
      /** When it arrived (ISO); "waited" is counted from it when the message is sent. */
      arrivedAt: z.string(),
      /**
       * A repeat submission's lead (lead.submitted): when the lead was created and when it was
       * last submitted before this one (ISO; null: only when it was created); "ago" is counted
       * when the message is sent.
       */
      repeat: z.object({ createdAt: z.string(), lastSubmittedAt: z.string().nullable() }).optional(),
      owner: z
        .object({ id: z.string().optional(), name: z.string(), slackUserId: z.string().nullable(), discordUserId: z.string().nullable() })
        .nullable(),
      email: z.string().nullable().optional(),
      phone: z.string().nullable().optional(),
      /**
       * The lead's extra fields as sent (spec 2.2), checked and kept as they are: zod's record
       * parse builds a new object by assignment, which drops a field named `__proto__`.
       */
      extra: z.custom<Record<string, string>>(isStringRecord, "extra fields are strings").optional(),
    })
    .nullable(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** The heading each event gives a message (the app's own words, never a lead's). */
export function headingOf(event: ChatEvent): string {
  switch (event) {
    case "lead.created":
      return "New lead";
    case "lead.assigned":
      return "Lead assigned";
    case "lead.submitted":
      return "Submitted again";
    case "lead.reminder":
      return "Lead still New";
    case "test":
      return "Test message";
  }
}

/** "3 min", "2 h 5 min", "1 d 4 h": how long a lead has waited at `now`. */
export function waited(arrivedAt: string, now: Date): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - new Date(arrivedAt).getTime()) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/**
 * The words before the owner's mention, for the events that mention them (an assignment, a
 * repeat submission: the owner is the one to call back); null: the event mentions nobody.
 */
export function mentionWords(event: ChatEvent): string | null {
  if (event === "lead.assigned") return "Assigned to";
  if (event === "lead.submitted") return "Owner:";
  return null;
}

/** Slack member ids (U…, W…) and Discord snowflakes: a mention is built only of one of these. */
export const SLACK_USER_ID = /^[UW][A-Z0-9]{2,20}$/;
export const DISCORD_USER_ID = /^\d{15,21}$/;

/** A labelled line of a message: the label is the app's, the value a lead's. */
export type Fact = { label: string; value: string };

/** The facts of a lead's message, in order, as every platform shows them. */
export function factsOf(lead: NonNullable<ChatMessage["lead"]>, now: Date): Fact[] {
  const facts: Fact[] = [
    { label: "Organization", value: lead.organization },
    { label: "From", value: lead.origin },
    { label: "Owner", value: lead.owner?.name ?? "Unassigned" },
    ...(lead.repeat
      ? [
          { label: "Lead created", value: `${waited(lead.repeat.createdAt, now)} ago` },
          ...(lead.repeat.lastSubmittedAt ? [{ label: "Submitted before", value: `${waited(lead.repeat.lastSubmittedAt, now)} ago` }] : []),
        ]
      : [{ label: "Waiting", value: waited(lead.arrivedAt, now) }]),
  ];
  if (lead.email) facts.push({ label: "Email", value: lead.email });
  if (lead.phone) facts.push({ label: "Phone", value: lead.phone });
  return facts;
}

/** At most this many extra fields are shown (the rest are on the lead's page). */
export const MAX_EXTRA_FIELDS = 5;

export function extraFactsOf(lead: NonNullable<ChatMessage["lead"]>): Fact[] {
  return Object.entries(lead.extra ?? {})
    .slice(0, MAX_EXTRA_FIELDS)
    .map(([label, value]) => ({ label, value }));
}
