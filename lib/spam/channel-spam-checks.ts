import { setApiKeySpamChecks } from "../api-keys/api-key-changes";
import type { AuditActor } from "../audit/audit-log";
import { setConnectionSpamChecks } from "../connections/connection-changes";
import type { Role } from "../teams/roles";
import { setWebFormSpamChecks } from "../web-forms/web-form-changes";
import { isFormId } from "../web-forms/web-form-store";
import { parseSpamChecksChoice } from "./spam-checks-setting";

// A channel's spam checks turned on or off from its page (docs/spam.md "Per channel"): who may
// (owners and admins; every member sees the setting), the choice as a page or a forged call
// sends it, and the channel's own audited change. The server actions call this after their
// own session and role check; the CLIs call the channels' changes directly.

export const SPAM_CHECKS_CHANNELS = ["api_key", "web_form", "connection"] as const;
export type SpamChecksChannel = (typeof SPAM_CHECKS_CHANNELS)[number];

export const SPAM_CHECKS_MANAGERS_ONLY = "Only owners and admins can turn the spam checks on or off.";

const GONE: Record<SpamChecksChannel, string> = {
  api_key: "That key does not exist (it may have been deleted).",
  web_form: "That form does not exist (it may have been deleted).",
  connection: "That connection does not exist (it may have been deleted).",
};

/** Whether someone holding `role` turns a channel's spam checks on or off. */
export const mayChangeSpamChecks = (role: Role) => role === "owner" || role === "admin";

const SETTERS: Record<
  SpamChecksChannel,
  (change: { teamId: string; id: string; spamChecks: boolean; actor: AuditActor }) => Promise<boolean>
> = {
  api_key: ({ id, ...change }) => setApiKeySpamChecks({ ...change, keyId: id }),
  web_form: ({ id, ...change }) => (isFormId(id) ? setWebFormSpamChecks({ ...change, formId: id }) : Promise.resolve(false)),
  connection: (change) => setConnectionSpamChecks(change),
};

/** Sets the team's channel `id`'s spam checks to `choice` ("on" or "off"); a refusal in words otherwise. */
export async function changeSpamChecks(options: {
  channel: SpamChecksChannel;
  teamId: string;
  id: unknown;
  choice: unknown;
  role: Role;
  actor: AuditActor;
}): Promise<{ ok: true } | { ok: false; error: string }> {
  if (!mayChangeSpamChecks(options.role)) return { ok: false, error: SPAM_CHECKS_MANAGERS_ONLY };
  const choice = parseSpamChecksChoice(options.choice);
  if ("problem" in choice) return { ok: false, error: choice.problem };
  const { channel, id } = options;
  const changed =
    typeof id === "string" &&
    id.length <= 100 &&
    (await SETTERS[channel]({ teamId: options.teamId, id, spamChecks: choice.spamChecks, actor: options.actor }));
  return changed ? { ok: true } : { ok: false, error: GONE[channel] };
}
