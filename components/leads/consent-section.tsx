import { CONSENT_STATUS_LABELS } from "@/lib/leads/lead-filter";
import { consentPurpose, consentText, type LeadConsentItem } from "@/lib/consent/lead-consent-store";
import { Badge } from "@/components/ui/badge";
import { DateTime } from "@/components/ui/date-time";
import { cardClass } from "@/components/ui/styles";
import { RecordConsentButton } from "./record-consent-button";
import { ResendConfirmationButton } from "./resend-confirmation-button";
import { WithdrawConsentButton } from "./withdraw-consent-button";

// A lead's consent on its page (docs/consent.md): its current status (the newest evidence's),
// what that evidence proves (the exact text, purpose, time, address, browser, page, channel) and
// the history of every piece of evidence, newest first.

const STATUS_LABEL = CONSENT_STATUS_LABELS;
const STATUS_TONE = {
  none: "slate",
  given: "green",
  not_given: "amber",
  pending: "amber",
  confirmed: "green",
  withdrawn: "slate",
  withdrawn_before: "amber",
} as const;
const CHANNEL_LABEL = {
  api: "API",
  form: "Web form",
  connection: "Form builder connection",
  manual: "Recorded by a member",
  email: "Confirmation email link",
  import: "CSV import",
} as const;

function Evidence({ item, recorder }: { item: LeadConsentItem; recorder: string | null }) {
  const rows: [string, React.ReactNode][] = [
    ["Status", STATUS_LABEL[item.status]],
    ["Text", consentText(item)],
    ["Purpose", consentPurpose(item)],
    ["Version", item.version ? `Version ${item.version.number}${item.version.required ? " (required)" : " (optional)"}` : null],
    ["Privacy policy", item.version?.policyUrl ?? null],
    ["When", <DateTime key="at" value={item.consentAt} />],
    ["IP address", item.ip],
    ["User agent", item.userAgent],
    ["Page", item.pageUrl],
    ["Channel", CHANNEL_LABEL[item.channel]],
    [item.channel === "manual" ? "How" : "Note", item.note],
    ["Recorded by", item.channel === "manual" ? (recorder ?? "Someone no longer in the team") : null],
  ];
  return (
    <dl className="grid grid-cols-[8rem_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
      {rows
        .filter(([, value]) => value !== null && value !== undefined)
        .map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-600">{label}</dt>
            <dd className="whitespace-pre-wrap break-words text-slate-900">{value}</dd>
          </div>
        ))}
    </dl>
  );
}

export function ConsentSection({
  slug,
  leadId,
  evidence,
  recorders,
  canResend = false,
  confirmationSentAt = null,
}: {
  slug: string;
  leadId: string;
  /** The lead's evidence, newest first. */
  evidence: LeadConsentItem[];
  /** Names of the members who recorded consent, by user id. */
  recorders: Map<string, string>;
  /** Owners and admins may resend the double opt-in email. */
  canResend?: boolean;
  /** When the newest confirmation email was queued. */
  confirmationSentAt?: Date | null;
}) {
  const [latest, ...older] = evidence;
  const status = latest?.status ?? "none";
  const recorder = (item: LeadConsentItem) => (item.recordedById ? (recorders.get(item.recordedById) ?? null) : null);
  return (
    <section aria-labelledby="consent-heading" className={`${cardClass} p-5`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="consent-heading" className="flex items-center gap-2 text-sm font-semibold text-slate-900">
          Consent <Badge tone={STATUS_TONE[status]}>{STATUS_LABEL[status]}</Badge>
        </h2>
        <div className="flex flex-wrap gap-2">
          {status === "pending" && canResend ? <ResendConfirmationButton slug={slug} leadId={leadId} /> : null}
          <RecordConsentButton slug={slug} leadId={leadId} />
          {status !== "withdrawn" ? <WithdrawConsentButton slug={slug} leadId={leadId} /> : null}
        </div>
      </div>
      {status === "pending" ? (
        <p className="mt-2 text-sm text-slate-600">
          A confirmation email was sent
          {confirmationSentAt ? (
            <>
              {" "}
              on <DateTime value={confirmationSentAt} />
            </>
          ) : null}
          ; the consent counts as confirmed once the person opens its link and presses “Confirm”. At most one email a day goes to a person.
        </p>
      ) : null}
      {status === "withdrawn_before" ? (
        <p className="mt-2 text-sm text-slate-600">
          This address is on the team&apos;s suppression list: the person withdrew their consent, or was erased, before. Do not email them
          unless they give consent again; no confirmation email is sent to it.
        </p>
      ) : null}
      {latest ? (
        <div className="mt-4">
          <Evidence item={latest} recorder={recorder(latest)} />
        </div>
      ) : (
        <p className="mt-4 text-sm text-slate-600">No submission of this lead carried consent, and none was recorded.</p>
      )}
      {older.length ? (
        <details className="mt-4">
          <summary className="cursor-pointer text-sm font-medium text-slate-800">History ({older.length} earlier)</summary>
          <ol className="mt-3 space-y-4" aria-label="Earlier consent evidence">
            {older.map((item) => (
              <li key={item.id} className="border-t border-slate-200 pt-3">
                <Evidence item={item} recorder={recorder(item)} />
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </section>
  );
}
