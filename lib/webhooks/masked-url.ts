// How a webhook endpoint's URL is shown where its secrets must not be: to members, in the
// endpoint list, and in audit details, which outlive the endpoint. Receivers often put a
// secret in the URL (`?token=…`, or a path such as Slack's /services/T…/B…/<secret>), so
// only the scheme, host and port and the first characters of the path are kept; the
// query, fragment and any user name or password never are. Owners and admins see the
// full URL on the endpoint's own page (docs/webhooks.md "Endpoints").

/** How many characters of the path are shown, its leading "/" included. */
export const SHOWN_PATH_CHARS = 5;

/**
 * `https://hooks.slack.com/services/T0/B0/secret?token=x` → `https://hooks.slack.com/serv…`:
 * scheme, host and port, the first characters of the path, and "…" when anything was left
 * out. A text that is not a URL shows as "…". Masking a masked URL changes nothing.
 */
export function maskWebhookUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "…";
  }
  // `host` carries the port (unless it is the scheme's default) and never the user info.
  const origin = `${parsed.protocol}//${parsed.host}`;
  // Characters, not percent-escapes: "/%E2%80%A6" is "/…", so a masked URL masks to itself.
  const path = Array.from(decoded(parsed.pathname));
  const hidden = path.length > SHOWN_PATH_CHARS || parsed.search !== "" || parsed.hash !== "";
  return `${origin}${path.slice(0, SHOWN_PATH_CHARS).join("")}${hidden ? "…" : ""}`;
}

/**
 * The path with its percent-escapes decoded, one character at a time (a UTF-8 sequence of
 * escapes). A character stays encoded when its escapes are not valid UTF-8 or it is what a
 * URL parser would not read back as the same path (controls, spaces, "?", "#", "%", "\\").
 * One character at a time, not a whole run: "%00" before "%E2%80%A6" ("…") must not keep
 * the "…" encoded, or a masked URL would not mask to itself.
 */
function decoded(path: string): string {
  return path.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    const escapes = run.match(/%[0-9a-f]{2}/gi)!;
    let out = "";
    for (let i = 0; i < escapes.length;) {
      const length = sequenceLength(parseInt(escapes[i]!.slice(1), 16));
      const sequence = escapes.slice(i, i + length).join("");
      const char = length <= escapes.length - i ? decodeSequence(sequence) : null;
      if (char === null || unsafe(char)) {
        out += escapes[i];
        i += 1;
      } else {
        out += char;
        i += length;
      }
    }
    return out;
  });
}

/** How many bytes a UTF-8 sequence starting with `byte` has (1 for a byte that starts none). */
function sequenceLength(byte: number): number {
  if (byte >= 0xf0 && byte <= 0xf4) return 4;
  if (byte >= 0xe0) return byte <= 0xef ? 3 : 1;
  if (byte >= 0xc2) return 2;
  return 1;
}

/** One character from its escapes; null when they are not valid UTF-8. */
function decodeSequence(sequence: string): string | null {
  try {
    const text = decodeURIComponent(sequence);
    return Array.from(text).length === 1 ? text : null;
  } catch {
    return null;
  }
}

function unsafe(char: string): boolean {
  const code = char.codePointAt(0)!;
  return code <= 0x20 || (code >= 0x7f && code <= 0x9f) || "?#%\\".includes(char);
}
