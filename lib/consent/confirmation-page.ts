import { clientIp } from "../http/request-context";
import { now } from "../time/clock";
import { confirmByLink, readConfirmationLink, withdrawByLink, type LinkAnswer, type LinkState } from "./double-opt-in";
import { readHeldLink, withdrawHeld, type HeldLink } from "./held-submissions";

// The pages a double opt-in link opens (docs/consent.md "Double opt-in"): plain HTML from
// escaped text, no script. GET shows the team's name and a "Confirm" button and changes
// nothing (mail scanners prefetch links); the button POSTs to the same address. A forged,
// unknown or another team's link is 404, a used one 409, an expired one 410. A link that names
// a held submission (held-submissions.ts: no lead until confirmed) answers alike; its POST
// creates the lead through the channel the route passes (lib/intake/confirm-held.ts).

/** The channel's confirmation of a held submission (lib/intake/confirm-held.ts); false when another one did first. */
export type ConfirmHeld = (link: Extract<HeldLink, { id: string }>, answer: LinkAnswer) => Promise<boolean>;
/** After a lead's own link confirmed: the person's held submissions of the team become leads too (lib/intake/confirm-held.ts). */
export type ConfirmPersonHeld = (person: { teamId: string; email: string }, answer: LinkAnswer) => Promise<void>;

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

const POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

function page(status: number, title: string, body: string): Response {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escape(title)}</title>
<style>
body{font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a;margin:0;padding:3rem 1rem}
main{max-width:32rem;margin:0 auto;background:#fff;border:1px solid #e2e8f0;border-radius:.75rem;padding:2rem}
h1{font-size:1.25rem;margin:0 0 1rem}p{line-height:1.5}
button{font:inherit;background:#4338ca;color:#fff;border:0;border-radius:.5rem;padding:.6rem 1.2rem;cursor:pointer}
button:focus-visible{outline:2px solid #1e1b4b;outline-offset:2px}
</style>
</head>
<body>
<main>
<h1>${escape(title)}</h1>
${body}
</main>
</body>
</html>
`;
  return new Response(html, {
    status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": POLICY,
      "Referrer-Policy": "no-referrer",
    },
  });
}

/** The page of a link that is not open: 404 not ours, 409 used, 410 expired. */
function refusal(link: { state: "invalid" } | { state: "open" | "used" | "expired"; teamName: string }): Response {
  if (link.state === "invalid")
    return page(404, "This link is not valid", "<p>Check that you opened the whole link from the email. Nothing was changed.</p>");
  if (link.state === "used")
    return page(409, "Already confirmed", `<p>Your consent for ${escape(link.teamName)} was confirmed before. Nothing was changed.</p>`);
  return page(
    410,
    "This link has expired",
    `<p>The link to confirm your consent for ${escape(link.teamName)} has expired. Nothing was changed: send the form again to get a new one.</p>`,
  );
}

/** A link as the pages read it: a lead's email's, else a held submission's (one more read only for a link that is not a lead's). */
async function readLink(teamSlug: string, token: string, at: Date): Promise<LinkState | HeldLink> {
  const link = await readConfirmationLink(teamSlug, token, at);
  return link.state === "invalid" ? readHeldLink(teamSlug, token, at) : link;
}

/** GET: the team's name and the "Confirm" button; changes nothing. */
export async function confirmationPage(teamSlug: string, token: string): Promise<Response> {
  const link = await readLink(teamSlug, token, now());
  if (link.state !== "open") return refusal(link);
  return page(
    200,
    `Confirm your consent for ${link.teamName}`,
    `<p>You gave your consent on a form of <strong>${escape(link.teamName)}</strong>. Press the button to confirm it.</p>
<form method="post"><button type="submit">Confirm</button></form>`,
  );
}

/** POST: confirms, recording the time, this request's address and user agent. */
export async function confirmationPost(
  request: Request,
  teamSlug: string,
  token: string,
  confirmHeld: ConfirmHeld,
  confirmPersonHeld?: ConfirmPersonHeld,
): Promise<Response> {
  const answer = { teamSlug, token, ip: clientIp(request.headers), userAgent: request.headers.get("user-agent"), at: now() };
  const lead = await confirmByLink(answer);
  // A person emailed for a lead within the day may have held submissions that got no link of
  // their own (the 24 h limit): confirming the lead's link confirms the person, so they are created.
  if (lead.state === "open") await confirmPersonHeld?.({ teamId: lead.teamId, email: lead.emailKey }, answer);
  const link = lead.state === "invalid" ? await readHeldLink(teamSlug, token, answer.at) : lead;
  if (link.state === "open" && "personKey" in link && !(await confirmHeld(link, answer))) {
    // Another confirmation created it first: the link is now a lead's, confirmed.
    return refusal({ ...link, state: "used" });
  }
  if (link.state !== "open") return refusal(link);
  return page(200, "Thank you: your consent is confirmed", `<p>${escape(link.teamName)} has your confirmation, with its time.</p>`);
}

/** GET of the unsubscribe address (a person who opened it): a "Withdraw" button; changes nothing. */
export async function unsubscribePage(teamSlug: string, token: string): Promise<Response> {
  const link = await readLink(teamSlug, token, now());
  if (link.state === "invalid") return refusal(link);
  return page(
    200,
    `Withdraw your consent for ${link.teamName}`,
    `<p>Press the button to withdraw the consent you gave <strong>${escape(link.teamName)}</strong>.</p>
<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Withdraw</button></form>`,
  );
}

/** POST (RFC 8058 one click, or the page's button): records the withdrawal. */
export async function unsubscribePost(request: Request, teamSlug: string, token: string): Promise<Response> {
  const answer = { teamSlug, token, ip: clientIp(request.headers), userAgent: request.headers.get("user-agent"), at: now() };
  const lead = await withdrawByLink(answer);
  // A held submission's: the person refuses before any lead exists; it is dropped (held-submissions.ts).
  const link = lead.state === "invalid" ? await readHeldLink(teamSlug, token, answer.at) : lead;
  if (link.state !== "invalid" && "personKey" in link) await withdrawHeld(link, answer.at);
  if (link.state === "invalid") return refusal(link);
  return page(200, "Your consent is withdrawn", `<p>${escape(link.teamName)} has your withdrawal, with its time.</p>`);
}
