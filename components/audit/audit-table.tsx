import type { AuditAction, AuditEventView } from "@/lib/audit/audit-log";
import { DateTime } from "@/components/ui/date-time";
import { cardClass, focusRingClass } from "@/components/ui/styles";
import { ROLE_LABEL } from "@/components/members/role-label";
import { parseRepeats, REPEATS_LABELS } from "@/lib/leads/repeats";
import { isSpamListKind, SPAM_LIST_LABELS } from "@/lib/spam/spam-list-entries";
import { isRole } from "@/lib/teams/team-store";
import { maskWebhookUrl } from "@/lib/webhooks/masked-url";
import { TableHead } from "@/components/ui/table-head";

const td = "px-4 py-3 text-sm text-slate-700";

export const ACTION_LABEL: Record<AuditAction, string> = {
  "api_key.generated": "API key generated",
  "api_key.secret_copied": "API secret copied",
  "api_key.secret_shown": "API secret shown to the operator",
  "api_key.deleted": "API key deleted",
  "api_key.renamed": "API key renamed",
  "api_key.expiry_set": "API key expiry set",
  "api_key.rolled": "API key rolled",
  "api_key.repeats_set": "API key repeat setting changed",
  "api_key.spam_checks_set": "API key spam checks changed",
  "member.invited": "Member invited",
  "member.role_changed": "Role changed",
  "member.removed": "Member removed",
  "member.invite_revoked": "Invite revoked",
  "member.sessions_ended": "Sessions ended",
  "web_form.created": "Web form created",
  "web_form.updated": "Web form changed",
  "web_form.enabled": "Web form enabled",
  "web_form.disabled": "Web form disabled",
  "web_form.deleted": "Web form deleted",
  "web_form.consent_set": "Web form's consent changed",
  "connection.created": "Connection created",
  "connection.url_rolled": "Connection URL rolled",
  "connection.secret_set": "Connection signing secret set",
  "connection.enabled": "Connection enabled",
  "connection.disabled": "Connection disabled",
  "connection.mapping_changed": "Connection mapping changed",
  "connection.repeats_set": "Connection repeat setting changed",
  "connection.spam_checks_set": "Connection spam checks changed",
  "connection.deleted": "Connection deleted",
  "connection.consent_set": "Connection's consent changed",
  "connection.delivery_deleted": "Connection delivery deleted",
  "webhook.created": "Webhook added",
  "webhook.updated": "Webhook changed",
  "webhook.deleted": "Webhook deleted",
  "webhook.enabled": "Webhook enabled",
  "webhook.disabled": "Webhook disabled",
  "webhook.secret_revealed": "Webhook secret revealed",
  "webhook.secret_rotated": "Webhook secret rotated",
  "webhook.test_sent": "Webhook test sent",
  "webhook.resent": "Webhook delivery resent",
  "chat.created": "Chat destination added",
  "chat.updated": "Chat destination changed",
  "chat.deleted": "Chat destination deleted",
  "chat.enabled": "Chat destination enabled",
  "chat.disabled": "Chat destination disabled",
  "chat.test_sent": "Chat test message sent",
  "notifications.changed": "Lead emails changed",
  "lead.deleted": "Leads deleted",
  "lead.erased": "Person erased",
  "lead.exported": "Leads exported",
  "lead.merged": "Leads merged",
  "lead.released_from_spam": "Released from spam",
  "lead.reported_spam": "Lead reported as spam",
  "spam.emptied": "Spam emptied",
  "spam.retention_applied": "Old spam deleted (retention)",
  "lead.retention_applied": "Old leads deleted (retention)",
  "lead.status_changed": "Lead status changed",
  "lead.assigned": "Lead assigned",
  "lead.note_added": "Note added to a lead",
  "lead.note_edited": "Note edited",
  "lead.note_deleted": "Note deleted",
  "lead.consent_recorded": "Consent recorded",
  "lead.consent_confirmation_sent": "Confirmation email resent",
  "lead.consent_withdrawn": "Consent withdrawn",
  "consent.suppression_purged": "Address removed from the suppression list",
  "lead.import_started": "Import started",
  "lead.import_cancelled": "Import cancelled",
  "lead.imported": "Import finished",
  "lead.import_undone": "Import undone",
  "routing.rule_created": "Assignment rule created",
  "routing.rule_updated": "Assignment rule changed",
  "routing.rule_deleted": "Assignment rule deleted",
  "routing.rules_reordered": "Assignment rules reordered",
  "routing.fallback_changed": "Routing fallback changed",
  "team.created": "Team created",
  "team.repeat_window_set": "Repeat window changed",
  "team.spam_settings_set": "Spam settings changed",
  "spam_list.entries_added": "Added to a spam list",
  "spam_list.entry_removed": "Removed from a spam list",
  "user.password_changed": "Password changed",
  "user.password_reset": "Password reset",
};

const REVOKED_BECAUSE: Record<string, string> = {
  inviter_removed: "inviter removed",
  inviter_role_changed: "inviter's role changed",
};

const quoted = (value: unknown) => (typeof value === "string" ? `"${value}"` : "no description");
const windowText = (value: unknown) => (value === 0 ? "never" : typeof value === "number" ? `${value} days` : "—");
const repeatsText = (value: unknown) => {
  const repeats = parseRepeats(value);
  return repeats ? REPEATS_LABELS[repeats] : "—";
};
const onOff = (value: unknown) => (value === true ? "on" : value === false ? "off" : "—");
const utc = (value: unknown) => `${String(value).replace("T", " ").slice(0, 16)} UTC`;

const listTitle = (value: unknown) => (isSpamListKind(value) ? SPAM_LIST_LABELS[value].title : "A spam list");

/** The settings a team.spam_settings_set event changed, with their new values. */
function spamSettingsNote(details: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof details.threshold === "number") parts.push(`threshold ${details.threshold}`);
  if (typeof details.business_only === "boolean") parts.push(`business addresses only ${details.business_only ? "on" : "off"}`);
  if (details.burst_limit === 0) parts.push("burst check off");
  else if (typeof details.burst_limit === "number") parts.push(`burst limit ${details.burst_limit} leads`);
  if (typeof details.burst_minutes === "number") parts.push(`burst window ${details.burst_minutes} minutes`);
  if (typeof details.retention_days === "number") parts.push(`spam kept ${details.retention_days} days`);
  return parts.join(", ");
}

const roleText = (value: unknown) => (isRole(value) ? ROLE_LABEL[value] : String(value ?? ""));

function who(event: AuditEventView): string {
  if (event.via === "cli") return "CLI (operator)";
  return event.actorEmail ?? "Deleted user";
}

/** An import event's counts, as far as it has them. */
function importNote(details: Record<string, unknown>): string | undefined {
  const parts = (["rows", "created", "updated", "skipped", "refused", "deleted", "kept"] as const)
    .filter((name) => typeof details[name] === "number")
    .map((name) => `${name} ${String(details[name])}`);
  return parts.length ? parts.join(", ") : undefined;
}

/** What the event acted on: the key id, or the member's email with the role involved. */
function target(event: AuditEventView): { main: string; note?: string } {
  const details = event.details ?? {};
  const email = typeof details.email === "string" ? details.email : null;
  switch (event.action) {
    case "member.invited":
      return { main: email ?? "—", note: `as ${roleText(details.role)}` };
    case "member.role_changed":
      return { main: email ?? event.targetId ?? "—", note: `${roleText(details.from)} → ${roleText(details.to)}` };
    case "member.invite_revoked": {
      const reason = typeof details.reason === "string" ? REVOKED_BECAUSE[details.reason] : undefined;
      return { main: email ?? "—", note: `as ${roleText(details.role)}${reason ? `; ${reason}` : ""}` };
    }
    case "member.removed":
      return { main: email ?? event.targetId ?? "—", note: `was ${roleText(details.role)}` };
    case "member.sessions_ended":
    case "user.password_changed":
    case "user.password_reset":
      return { main: email ?? event.targetId ?? "—" };
    case "web_form.updated":
      return {
        main: event.targetId ?? "—",
        note:
          typeof details.spamChecks === "boolean"
            ? `${typeof details.name === "string" ? `${details.name}: ` : ""}spam checks ${onOff(details.spamChecks)}`
            : typeof details.name === "string"
              ? details.name
              : undefined,
      };
    case "web_form.created":
    case "web_form.deleted":
    case "web_form.consent_set":
    case "connection.consent_set":
    case "lead.consent_recorded":
    case "lead.consent_confirmation_sent":
    case "lead.consent_withdrawn":
    case "connection.created":
    case "connection.deleted":
    case "routing.rule_created":
    case "routing.rule_updated":
    case "routing.rule_deleted":
      return { main: event.targetId ?? "—", note: typeof details.name === "string" ? details.name : undefined };
    // Masked again when shown: entries written before URLs were masked hold the full URL.
    case "webhook.created":
      return { main: typeof details.url === "string" ? maskWebhookUrl(details.url) : (event.targetId ?? "—") };
    case "webhook.updated":
      return {
        main: typeof details.url === "string" ? maskWebhookUrl(details.url) : (event.targetId ?? "—"),
        note: typeof details.changed === "string" ? `changed: ${details.changed}` : undefined,
      };
    case "webhook.secret_rotated":
      return {
        main: event.targetId ?? "—",
        note:
          typeof details.old_signs_until === "string" && details.old_signs_until !== "none"
            ? `old secret signs until ${utc(details.old_signs_until)}`
            : "old secret stopped at once",
      };
    case "lead.deleted":
    case "lead.erased":
    case "lead.exported":
    case "lead.merged":
    case "lead.retention_applied":
      return {
        main: event.targetId ?? "—",
        note: typeof details.count === "number" ? `${details.count} lead${details.count === 1 ? "" : "s"}` : undefined,
      };
    // A note's length, never its text.
    case "lead.note_added":
    case "lead.note_edited":
    case "lead.note_deleted":
      return {
        main: event.targetId ?? "—",
        note: typeof details.length === "number" ? `${details.length.toLocaleString("en-US")} characters` : undefined,
      };
    case "lead.import_started":
    case "lead.import_cancelled":
    case "lead.imported":
    case "lead.import_undone":
      return { main: typeof details.fileName === "string" ? details.fileName : (event.targetId ?? "—"), note: importNote(details) };
    case "team.created":
      return {
        main: typeof details.name === "string" ? details.name : "—",
        note: typeof details.slug === "string" ? `/t/${details.slug}` : undefined,
      };
    case "team.repeat_window_set":
      return { main: "Repeat submissions join a lead for", note: `${windowText(details.from)} → ${windowText(details.to)}` };
    case "team.spam_settings_set":
      return { main: "Spam settings", note: spamSettingsNote(details) };
    case "spam_list.entries_added":
      return {
        main: listTitle(details.list),
        note: typeof details.count === "number" ? `${details.count} entr${details.count === 1 ? "y" : "ies"} added` : undefined,
      };
    case "spam_list.entry_removed":
      return { main: listTitle(details.list), note: event.targetId ? `entry ${event.targetId}` : undefined };
    case "connection.delivery_deleted":
      return { main: event.targetId ?? "—", note: typeof details.delivery_id === "string" ? `delivery ${details.delivery_id}` : undefined };
    case "api_key.renamed":
      return { main: event.targetId ?? "—", note: `${quoted(details.from)} → ${quoted(details.to)}` };
    case "api_key.expiry_set":
      return { main: event.targetId ?? "—", note: details.expires_at ? `expires ${utc(details.expires_at)}` : "no expiry" };
    case "api_key.repeats_set":
    case "connection.repeats_set":
      return { main: event.targetId ?? "—", note: `${repeatsText(details.from)} → ${repeatsText(details.to)}` };
    case "api_key.spam_checks_set":
    case "connection.spam_checks_set":
      return { main: event.targetId ?? "—", note: `spam checks ${onOff(details.from)} → ${onOff(details.to)}` };
    case "api_key.rolled":
      return { main: event.targetId ?? "—", note: `replaced by ${String(details.replacement)}; expires ${utc(details.expires_at)}` };
    case "consent.suppression_purged":
      return { main: "—", note: details.reason === "erased" ? "The person was erased" : "The person withdrew consent" };
    default:
      return { main: event.targetId ?? "—", note: typeof details.description === "string" ? details.description : undefined };
  }
}

/** A team's audit events as text (never HTML), newest first. */
export function AuditTable({ events }: { events: AuditEventView[] }) {
  if (events.length === 0) {
    return <p className={`${cardClass} px-5 py-8 text-center text-sm text-slate-600`}>Nothing has been recorded yet.</p>;
  }
  return (
    // Focusable, so a keyboard can scroll the table sideways on a narrow screen (it holds no link or control).
    <div role="region" aria-label="Audit log" tabIndex={0} className={`${cardClass} overflow-x-auto ${focusRingClass}`}>
      <table className="min-w-full divide-y divide-slate-200">
        <caption className="sr-only">Audit log, newest first</caption>
        <TableHead columns={["When", "Who", "Action", "Target", "IP address"]} />
        <tbody className="divide-y divide-slate-100">
          {events.map((event) => {
            const { main, note } = target(event);
            return (
              <tr key={event.id} data-action={event.action}>
                <td className={`${td} whitespace-nowrap`}>
                  <DateTime value={event.at} />
                </td>
                <td className={td}>{who(event)}</td>
                <th scope="row" className="px-4 py-3 text-left text-sm font-medium whitespace-nowrap text-slate-900">
                  {ACTION_LABEL[event.action] ?? event.action}
                </th>
                <td className={td}>
                  <div className="font-mono text-xs break-all text-slate-900">{main}</div>
                  {note ? <div className="text-slate-500">{note}</div> : null}
                </td>
                <td className={`${td} font-mono text-xs whitespace-nowrap`}>{event.ip ?? "—"}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
