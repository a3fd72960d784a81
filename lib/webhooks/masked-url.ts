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
 * The path with its percent-escapes decoded, each run of them on its own. A run stays
 * encoded when it is not valid UTF-8 or decodes to what a URL parser would not read back
 * as the same path (controls, spaces, "?", "#", "%", "\\").
 */
function decoded(path: string): string {
  return path.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      const text = decodeURIComponent(run);
      return Array.from(text).some(unsafe) ? run : text;
    } catch {
      return run;
    }
  });
}

function unsafe(char: string): boolean {
  const code = char.codePointAt(0)!;
  return code <= 0x20 || (code >= 0x7f && code <= 0x9f) || "?#%\\".includes(char);
}
