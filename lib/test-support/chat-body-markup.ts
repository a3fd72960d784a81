import type { ChatPlatform } from "../chat/chat-platforms";

// What in a chat body is a mention, a link or markup that the app did not write: each
// platform's own syntax, read as the platform reads it (docs/notifications.md "Safe text").
// The app's own pieces are known exactly (a mention of the owner, the link to the lead, the
// bold heading), so anything else that parses as syntax came from a lead's value.

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const arr = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Every string in `value`, with its path. */
function strings(value: unknown, at = ""): [string, string][] {
  if (typeof value === "string") return [[at, value]];
  if (Array.isArray(value)) return value.flatMap((item, i) => strings(item, `${at}[${i}]`));
  if (isObject(value)) return Object.entries(value).flatMap(([key, item]) => strings(item, `${at}.${key}`));
  return [];
}

/** Slack: a `<…>` is a mention or link, `&` must start &amp; &lt; &gt;; lead values must not be in mrkdwn. */
function slackMarkup(body: unknown, link: string): string[] {
  const found: string[] = [];
  for (const [at, text] of strings(body)) {
    if (at.endsWith(".url") && text === link) continue;
    if (at.endsWith(".type")) continue;
    const own = text.replace(/^(?:Assigned to|Owner:) <@[UW][A-Z0-9]+>$/, "");
    if (/[<>]/.test(own)) found.push(`${at}: ${text}`);
    if (/&(?!amp;|lt;|gt;)/.test(own)) found.push(`${at}: bare & in ${text}`);
  }
  for (const block of arr((body as Json).blocks)) {
    const text = isObject(block) && isObject(block.text) ? block.text : null;
    if (text?.type === "mrkdwn" && !/^(?:Assigned to|Owner:) <@[UW][A-Z0-9]+>$/.test(String(text.text)))
      found.push(`mrkdwn: ${String(text.text)}`);
  }
  return found;
}

/** ASCII punctuation not escaped by a backslash (Discord's and CommonMark's escapes). */
function unescapedPunctuation(text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\") {
      if (i + 1 < text.length && /[!-/:-@[-`{-~]/.test(text[i + 1]!)) i++;
      else found.push("\\");
      continue;
    }
    if (/[!-/:-@[-`{-~]/.test(text[i]!)) found.push(text[i]!);
  }
  return found;
}

const LABELS = new Set(["Organization", "From", "Owner", "Waiting", "Email", "Phone"]);

function discordMarkup(body: unknown, link: string, ownerId: string | null): string[] {
  const found: string[] = [];
  const b = body as Json;
  if (b.content !== undefined && b.content !== `Assigned to <@${ownerId}>` && b.content !== `Owner: <@${ownerId}>`)
    found.push(`content: ${String(b.content)}`);
  const mentions = b.allowed_mentions as Json;
  if (!isObject(mentions) || arr(mentions.parse).length) found.push("allowed_mentions.parse not empty");
  for (const user of arr(isObject(mentions) ? mentions.users : [])) if (user !== ownerId) found.push(`pings ${String(user)}`);
  for (const embed of arr(b.embeds)) {
    const e = embed as Json;
    const check = (where: string, text: unknown) => {
      const bad = unescapedPunctuation(String(text ?? ""));
      if (bad.length) found.push(`${where}: ${bad.join("")} in ${String(text)}`);
    };
    check("title", e.title);
    if (e.url !== undefined && e.url !== link) found.push(`url ${String(e.url)}`);
    if (
      e.description !== undefined &&
      e.description !== `[Open the lead](${link})` &&
      e.description !== "This channel will hear of the team's leads."
    )
      found.push(`description: ${String(e.description)}`);
    for (const field of arr(e.fields)) {
      const f = field as Json;
      if (!LABELS.has(String(f.name))) check("field name", f.name);
      check("field value", f.value);
    }
    if (isObject(e.footer)) check("footer", e.footer.text);
  }
  return found;
}

function slackCompatibleMarkup(body: unknown, link: string): string[] {
  const found: string[] = [];
  const lines = String((body as Json).text).split("\n");
  lines.forEach((line, i) => {
    if (line === `[Open the lead](${link})`) return;
    const heading = /^\*\*(?:New lead|Lead assigned|Submitted again|Lead still New|Test message): (.*)\*\*$/.exec(line);
    const fact = /^(?:Organization|From|Owner|Waiting|Lead created|Submitted before|Email|Phone): (.*)$/.exec(line);
    let parts: string[];
    if (i === 0 && heading) parts = [heading[1]!];
    else if (fact && i > 0 && i <= 7) parts = [fact[1]!];
    else {
      // An extra field: its escaped label, ": ", its escaped value.
      const split = /^((?:\\.|[^\\:])*): (.*)$/.exec(line);
      parts = split ? [split[1]!, split[2]!] : [line];
    }
    for (const part of parts) {
      const bad = unescapedPunctuation(part);
      if (bad.length) found.push(`line ${i}: ${bad.join("")} in ${line}`);
    }
  });
  return found;
}

/** Google Chat cards: HTML tags other than the app's <b> and <br>, or a bare &; a lead value in `text`. */
function googleChatMarkup(body: unknown, link: string): string[] {
  const found: string[] = [];
  if ((body as Json).text !== undefined) found.push("message text");
  for (const [at, text] of strings(body)) {
    if (at.endsWith(".url") && text === link) continue;
    const own = text.replace(/^<b>|<\/b>$/g, "").replaceAll("<br>", "");
    if (/[<>]/.test(own)) found.push(`${at}: ${text}`);
    if (/&(?!amp;|lt;|gt;|quot;|#39;)/.test(own)) found.push(`${at}: bare & in ${text}`);
  }
  return found;
}

/** Teams: only RichTextBlocks of TextRuns (never Markdown), no "{{" function, no mention entities, one link: the app's. */
function teamsMarkup(body: unknown, link: string): string[] {
  const found: string[] = [];
  for (const [at, text] of strings(body)) {
    if (at.endsWith(".type") && !["message", "AdaptiveCard", "RichTextBlock", "TextRun", "Action.OpenUrl"].includes(text))
      found.push(`${at}: ${text}`);
    if (text.includes("{{")) found.push(`${at}: {{ in ${text}`);
    if (at.endsWith(".url") && text !== link) found.push(`${at}: ${text}`);
    if (at.includes("msteams")) found.push(at);
  }
  return found;
}

/** The mentions, links and markup in `body` that are not the app's own (the lead's link, the owner's mention). */
export function foreignMarkup(platform: ChatPlatform, body: unknown, own: { link: string; ownerId: string | null }): string[] {
  switch (platform) {
    case "slack":
      return slackMarkup(body, own.link);
    case "slack-compatible":
      return slackCompatibleMarkup(body, own.link);
    case "discord":
      return discordMarkup(body, own.link, own.ownerId);
    case "google-chat":
      return googleChatMarkup(body, own.link);
    case "teams":
      return teamsMarkup(body, own.link);
  }
}
