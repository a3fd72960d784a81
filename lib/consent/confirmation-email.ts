import { z } from "zod";
import { now } from "../time/clock";
import { confirmationForEmail } from "./consent-confirmation-store";
import { confirmationToken } from "./confirmation-token";
import { CONFIRMATION_EMAIL_KIND } from "./double-opt-in";
import { heldForEmail } from "./held-submissions";

// The double opt-in email (docs/consent.md "Double opt-in"), rendered when the email job runs:
// text and HTML, the team's name, the link to the confirmation page (signed now: the token is
// never stored), and the unsubscribe headers of RFC 2369 and RFC 8058 (one click, a POST,
// recorded as "withdrawn" evidence). A link confirmed or expired before the job ran sends nothing.
// A held submission's email (held-submissions.ts: no lead yet) reads the address it holds, sealed.

const payloadSchema = z.object({ kind: z.literal(CONFIRMATION_EMAIL_KIND), confirmationId: z.string() });

export function isConfirmationEmail(payload: unknown): boolean {
  return typeof payload === "object" && payload !== null && (payload as { kind?: unknown }).kind === CONFIRMATION_EMAIL_KIND;
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** The confirmation page and one-click unsubscribe addresses of a confirmation. */
export function confirmationLinks(baseUrl: string, teamSlug: string, id: string) {
  const page = `${baseUrl}/api/consent/${encodeURIComponent(teamSlug)}/${confirmationToken(id)}`;
  return { page, unsubscribe: `${page}/unsubscribe` };
}

export type ConfirmationEmail =
  { to: string; subject: string; text: string; html: string; headers: Record<string, string> } | { dropped: string };

export async function consentConfirmationEmail(teamId: string, raw: unknown, baseUrl: string): Promise<ConfirmationEmail> {
  const payload = payloadSchema.parse(raw);
  const found = await confirmationForEmail(teamId, payload.confirmationId);
  const row = found
    ? { ...found, email: found.lead.email, team: found.lead.team }
    : await heldForEmail(teamId, payload.confirmationId).then((held) => held && { ...held, confirmedAt: null });
  if (!row) return { dropped: "The lead was deleted (or, held, it was confirmed or dropped)" };
  if (row.confirmedAt) return { dropped: "Already confirmed" };
  if (row.expiresAt.getTime() <= now().getTime()) return { dropped: "The link expired before it was sent" };
  if (!row.email) return { dropped: "The lead has no email address" };
  const team = row.team.name.replace(/[\r\n]+/g, " ");
  const links = confirmationLinks(baseUrl, row.team.slug, row.id);
  const until = row.expiresAt.toUTCString();
  const text = [
    `Please confirm that ${team} may contact you.`,
    "",
    `You gave your consent on a form of ${team}. To confirm it, open this link and press "Confirm":`,
    links.page,
    "",
    `The link is valid until ${until}. If you did not send that form, ignore this email: nothing happens without your confirmation.`,
    "",
    `To withdraw your consent instead: ${links.unsubscribe}`,
  ].join("\n");
  const html = `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;color:#0f172a">
<p>Please confirm that <strong>${escape(team)}</strong> may contact you.</p>
<p>You gave your consent on a form of ${escape(team)}. To confirm it, open this link and press “Confirm”:</p>
<p><a href="${escape(links.page)}">Confirm my consent</a></p>
<p>The link is valid until ${escape(until)}. If you did not send that form, ignore this email: nothing happens without your confirmation.</p>
<p><a href="${escape(links.unsubscribe)}">Withdraw my consent</a></p>
</body></html>`;
  return {
    to: row.email,
    subject: `Please confirm: ${team}`,
    text,
    html,
    headers: { "List-Unsubscribe": `<${links.unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}
