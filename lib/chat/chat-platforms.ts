// The chat platforms a destination posts to, and how a pasted incoming-webhook URL is
// recognised as one of them (docs/notifications.md "Destinations"). Each shape is the one
// its platform's documentation gives for an incoming webhook; the four hosted platforms'
// hosts are known, so the SSRF guard's only open door is a Slack-compatible server, whose
// host must resolve to a public address when a message is sent (lib/webhooks/target-address.ts).

export const CHAT_PLATFORMS = ["slack", "teams", "discord", "google-chat", "slack-compatible"] as const;
export type ChatPlatform = (typeof CHAT_PLATFORMS)[number];

export const PLATFORM_LABELS: Record<ChatPlatform, string> = {
  slack: "Slack",
  teams: "Microsoft Teams",
  discord: "Discord",
  "google-chat": "Google Chat",
  "slack-compatible": "Slack-compatible (Mattermost, Rocket.Chat)",
};

/** The sentence a refused URL gets: the shapes that are accepted. */
export const ACCEPTED_SHAPES =
  "Paste an incoming-webhook URL of one of these shapes: Slack https://hooks.slack.com/services/…, " +
  "Microsoft Teams (a Workflows webhook) https://….logic.azure.com/workflows/… or https://….environment.api.powerplatform.com/…/workflows/…, " +
  "Discord https://discord.com/api/webhooks/<id>/<token>, " +
  "Google Chat https://chat.googleapis.com/v1/spaces/<space>/messages?key=…&token=…, " +
  "or a Slack-compatible server (Mattermost, Rocket.Chat) at your own public https host.";

type Shape = {
  platform: Exclude<ChatPlatform, "slack-compatible">;
  host: (hostname: string) => boolean;
  path: RegExp;
  query: string[];
};

const endsWith = (suffix: string) => (hostname: string) => hostname.endsWith(suffix) && hostname.length > suffix.length;

const SHAPES: Shape[] = [
  // Slack, "Sending messages using incoming webhooks": https://hooks.slack.com/services/T…/B…/<secret>.
  { platform: "slack", host: (hostname) => hostname === "hooks.slack.com", path: /^\/services\/[^/]+\/[^/]+\/[^/]+\/?$/, query: [] },
  // Discord, "Execute Webhook": POST /webhooks/{webhook.id}/{webhook.token}, on discord.com (and its older
  // discordapp.com and the canary/ptb clients' hosts), optionally with the API version /api/v10/.
  {
    platform: "discord",
    host: (hostname) => ["discord.com", "discordapp.com", "canary.discord.com", "ptb.discord.com"].includes(hostname),
    path: /^\/api(?:\/v\d+)?\/webhooks\/\d+\/[\w-]+\/?$/,
    query: [],
  },
  // Teams' Workflows, "Post to a channel when a webhook request is received": the flow's trigger URL, on Azure
  // Logic Apps (https://prod-NN.<region>.logic.azure.com:443/workflows/<id>/triggers/manual/paths/invoke?…sig=…)
  // or, for flows made since 2025, Power Platform (https://<env>.environment.api.powerplatform.com:443/
  // powerautomate/automations/direct/workflows/<id>/triggers/manual/paths/invoke?…sig=…).
  {
    platform: "teams",
    host: (hostname) => endsWith(".logic.azure.com")(hostname) || endsWith(".environment.api.powerplatform.com")(hostname),
    path: /\/workflows\/[^/]+\/triggers\/[^/]+\/paths\/invoke\/?$/,
    query: ["sig"],
  },
  // Google Chat, "Build a Google Chat app as a webhook": https://chat.googleapis.com/v1/spaces/<space>/messages?key=…&token=….
  {
    platform: "google-chat",
    host: (hostname) => hostname === "chat.googleapis.com",
    path: /^\/v1\/spaces\/[^/]+\/messages\/?$/,
    query: ["key", "token"],
  },
];

const pathMatches = (shape: Shape, url: URL) => shape.path.test(url.pathname) && shape.query.every((name) => url.searchParams.has(name));

/** A host an operator's own test servers live at: a name without dots (localhost) or an IP literal. */
const isLocalHost = (hostname: string) => !hostname.includes(".") || /^[\d.]+$/.test(hostname) || hostname.startsWith("[");

export type Recognised = { ok: true; platform: ChatPlatform; url: string } | { ok: false; message: string };

/**
 * The platform of a pasted URL: the known platform whose shape it has, or a Slack-compatible
 * server when `chosen` says so and the URL is https at a host that is not a known platform's
 * (its address is checked when a message is sent). A known platform chosen for a URL of
 * another shape is refused, and so is anything else, with ACCEPTED_SHAPES. With `allowLocal`
 * (WEBHOOK_ALLOW_PRIVATE_TARGETS, the operator's own test servers) a URL at localhost or an
 * IP address, http or https, is taken as the platform its path has.
 */
export function recogniseChatUrl(text: string, options: { chosen?: ChatPlatform | null; allowLocal?: boolean } = {}): Recognised {
  const { chosen } = options;
  const refused: Recognised = { ok: false, message: ACCEPTED_SHAPES };
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return refused;
  }
  const local = Boolean(options.allowLocal) && isLocalHost(url.hostname);
  if (!(url.protocol === "https:" || (local && url.protocol === "http:")) || url.username || url.password || url.hash) return refused;
  const shape = SHAPES.find(
    (candidate) =>
      (local || candidate.host(url.hostname)) && pathMatches(candidate, url) && (!local || !chosen || chosen === candidate.platform),
  );
  if (shape) {
    if (chosen && chosen !== shape.platform && chosen !== "slack-compatible") {
      return { ok: false, message: `This is a ${PLATFORM_LABELS[shape.platform]} URL, not ${PLATFORM_LABELS[chosen]}. ${ACCEPTED_SHAPES}` };
    }
    if (chosen !== "slack-compatible") return { ok: true, platform: shape.platform, url: url.href };
  }
  if (chosen === "slack-compatible" && !knownPlatformHost(url.hostname) && (local || url.hostname.includes("."))) {
    return { ok: true, platform: "slack-compatible", url: url.href };
  }
  return refused;
}

/** A host of one of the known platforms (a URL there must have its platform's shape). */
function knownPlatformHost(hostname: string): boolean {
  return (
    ["hooks.slack.com", "slack.com", "discord.com", "discordapp.com", "chat.googleapis.com"].includes(hostname) ||
    hostname.endsWith(".slack.com") ||
    hostname.endsWith(".discord.com") ||
    hostname.endsWith(".logic.azure.com") ||
    hostname.endsWith(".powerplatform.com") ||
    hostname.endsWith(".googleapis.com")
  );
}

export function isChatPlatform(value: unknown): value is ChatPlatform {
  return typeof value === "string" && (CHAT_PLATFORMS as readonly string[]).includes(value);
}
