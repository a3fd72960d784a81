import type { Page, Request } from "@playwright/test";

// Forging a server action call: record the request a page really sends for an action,
// then send the same call (optionally with a changed body) from another user's session.

export type RecordedAction = { url: string; headers: Record<string, string>; body: string };

const isAction = (request: Request) => request.method() === "POST" && request.headers()["next-action"] !== undefined;

/** Runs `trigger` and returns the server action request it caused. */
export async function recordAction(page: Page, trigger: () => Promise<void>): Promise<RecordedAction> {
  const [request] = await Promise.all([page.waitForRequest(isAction), trigger()]);
  return { url: request.url(), headers: await request.allHeaders(), body: request.postData() ?? "" };
}

/**
 * Sends a recorded action call with the cookies of `page`'s context, from the site's own
 * Origin unless `origin` names another one (or is null: no Origin header at all).
 */
export async function replayAction(
  page: Page,
  action: RecordedAction,
  body = action.body,
  options: { origin?: string | null } = {},
): Promise<{ status: number; text: string }> {
  const keep = ["next-action", "next-router-state-tree", "content-type", "accept"];
  const headers = Object.fromEntries(Object.entries(action.headers).filter(([name]) => keep.includes(name)));
  const origin = options.origin === undefined ? new URL(action.url).origin : options.origin;
  const response = await page.request.post(action.url, {
    headers: origin === null ? headers : { ...headers, origin },
    data: body,
  });
  return { status: response.status(), text: await response.text() };
}
