import { oneLine } from "../leads/one-line";

// Text from a lead, made safe for a chat (docs/notifications.md "Safe text"): cut within a
// platform's limit with "…" between whole characters (an emoji of several code points, a
// flag or a letter with its accents is never split), and escaped by the platform's own rule
// after cutting, so an escape is never cut in half. Lengths are counted in UTF-16 code units,
// never fewer than the characters or code points a platform counts.

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

export const ELLIPSIS = "…";

/**
 * `text` escaped by `escape`, no longer than `max` code units: when it would be longer, the
 * longest run of whole characters whose escaped form fits with "…" after it.
 */
export function cutEscaped(text: string, max: number, escape: (text: string) => string = (same) => same): string {
  const whole = escape(text);
  if (whole.length <= max) return whole;
  let out = "";
  for (const { segment } of segmenter.segment(text)) {
    const next = escape(segment);
    if (out.length + next.length + ELLIPSIS.length > max) break;
    out += next;
  }
  return out + ELLIPSIS;
}

/** `text`, or "—" when it is empty or only white space (a field a platform must not leave blank: Discord refuses a blank embed field). */
export function orDash(text: string): string {
  return text.trim() ? text : "\u2014";
}

/** One line (lib/leads/one-line.ts), trimmed; a lead's field as a chat line shows it. */
export function lineOf(text: string): string {
  return oneLine(text).trim();
}

/**
 * Bidirectional formatting characters a name could use to make the text around it read
 * backwards (an override, an embedding or an isolate left open): removed.
 */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/** A lead's value without bidi controls: right-to-left text stays readable, the app's own text stays in its order. */
export function withoutBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, "");
}

/** Slack's rule ("Escaping text"): &, < and > as &amp;, &lt;, &gt;, so `<!channel>` or `<https://x|y>` is text. */
export function escapeSlack(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/** HTML's five, for Google Chat's card text (its HTML subset). */
export function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

/**
 * Markdown of Discord and Mattermost: a backslash before every ASCII punctuation character
 * (CommonMark's escapes, and Discord's own rule escapes any character that is not a letter,
 * digit or space), so no emphasis, heading, link, autolink (`https\:\/\/…`), mention
 * (`\<@123>`, `\@everyone`) or emoji code (`\:x\:`) is made of a lead's value.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[!-/:-@[-`{-~]/g, (char) => `\\${char}`);
}
