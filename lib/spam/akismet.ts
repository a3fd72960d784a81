import { isIP } from "node:net";
import { env, type Env } from "../env";
import { log } from "../log/logger";
import { metrics } from "../operations/metrics";

// Akismet's comment-check (https://akismet.com/developers/detailed-docs/comment-check/), the
// optional outside check after the local ones (docs/spam.md "Akismet (optional)"): one
// form-encoded POST, answered "true" (spam) or "false" (ham). The lead waits for it at most
// AKISMET_TIMEOUT_MS; a time-out, a refused key or any other answer is no verdict (null), so
// the local verdict stands and no lead is delayed longer or lost. Neither the key nor the
// submission is ever logged.

export type AkismetVerdict = "spam" | "ham";

export type AkismetConfig = { apiKey: string; blog: string; endpoint: string; timeoutMs: number };

/** What Akismet is told about one submission. */
export type AkismetSubmission = {
  /** The sender's address as the request context holds it (an IPv6 address cut to its /64). */
  ip: string | null;
  userAgent?: string | null;
  referrer?: string | null;
  author?: string;
  email?: string;
  url?: string;
  content: string;
};

type Settings = Pick<Env, "AKISMET_API_KEY" | "AKISMET_BLOG" | "AKISMET_ENDPOINT" | "AKISMET_TIMEOUT_MS" | "NEXTAUTH_URL">;

/** The check's settings, or null when it does not run: no key, or no site URL to file the checks under. */
export function akismetConfigOf(settings: Settings): AkismetConfig | null {
  const apiKey = settings.AKISMET_API_KEY;
  const blog = settings.AKISMET_BLOG ?? settings.NEXTAUTH_URL;
  if (!apiKey || !blog) return null;
  return { apiKey, blog, endpoint: settings.AKISMET_ENDPOINT, timeoutMs: settings.AKISMET_TIMEOUT_MS };
}

let unconfiguredLogged = false;

/** The check's settings from the environment; a key without a site URL is logged once and runs nothing. */
export function akismetConfig(): AkismetConfig | null {
  const settings = env();
  const config = akismetConfigOf(settings);
  if (!config && settings.AKISMET_API_KEY && !unconfiguredLogged) {
    unconfiguredLogged = true;
    log("warn", "spam.akismet_unconfigured", { missing: "AKISMET_BLOG or NEXTAUTH_URL" });
  }
  return config;
}

/** An address Akismet can read: IPv4 as is, a /64 as its first address; null for anything else. */
export function akismetIp(ip: string | null): string | null {
  if (!ip) return null;
  const address = ip.endsWith("::/64") ? ip.slice(0, -3) : ip;
  return isIP(address) ? address : null;
}

const USER_AGENT = "LeadIntake/1.0 | comment-check";

function form(config: AkismetConfig, submission: AkismetSubmission, userIp: string): URLSearchParams {
  const fields: [string, string | null | undefined][] = [
    ["api_key", config.apiKey],
    ["blog", config.blog],
    ["user_ip", userIp],
    ["user_agent", submission.userAgent],
    ["referrer", submission.referrer],
    ["comment_type", "contact-form"],
    ["comment_author", submission.author],
    ["comment_author_email", submission.email],
    ["comment_author_url", submission.url],
    ["comment_content", submission.content],
    ["blog_charset", "UTF-8"],
  ];
  return new URLSearchParams(fields.filter((field): field is [string, string] => typeof field[1] === "string" && field[1] !== ""));
}

function failed(result: "error" | "timeout", fields: Record<string, unknown>): null {
  metrics().akismetChecks.inc({ result });
  log("warn", "spam.akismet_failed", { result, ...fields });
  return null;
}

/** Akismet's verdict on a submission, or null: not configured, no usable address, or no answer within the budget. */
export async function akismetCheck(
  submission: AkismetSubmission,
  config: AkismetConfig | null = akismetConfig(),
): Promise<AkismetVerdict | null> {
  const userIp = akismetIp(submission.ip);
  if (!config || !userIp) return null;
  const url = new URL("1.1/comment-check", config.endpoint.endsWith("/") ? config.endpoint : `${config.endpoint}/`);
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8", "user-agent": USER_AGENT },
      body: form(config, submission, userIp),
      redirect: "error",
      signal: AbortSignal.timeout(config.timeoutMs),
    });
    const body = (await response.text()).trim();
    if (response.status !== 200) return failed("error", { status: response.status });
    const verdict: AkismetVerdict | null =
      response.headers.get("x-akismet-pro-tip") === "discard" || body === "true" ? "spam" : body === "false" ? "ham" : null;
    if (!verdict) {
      // Akismet says why in this header ("Empty 'blog' value", an invalid key): its words, never the key's.
      return failed("error", { status: response.status, help: response.headers.get("x-akismet-debug-help")?.slice(0, 200) ?? null });
    }
    metrics().akismetChecks.inc({ result: verdict });
    return verdict;
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    const code = (error as { cause?: { code?: unknown } }).cause?.code;
    return failed(timedOut ? "timeout" : "error", {
      error: error instanceof Error ? error.name : "unknown",
      code: typeof code === "string" ? code : null,
    });
  }
}
