"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import {
  deleteEndpointAction,
  editEndpointAction,
  resendDeliveryAction,
  revealSecretAction,
  rotateSecretAction,
  sendTestEventAction,
  setEndpointEnabledAction,
} from "@/app/t/[slug]/settings/webhooks/actions";
import type { ActionResult } from "@/lib/auth/require-team-role";
import { RollDialog } from "@/components/api-keys/expiry-select";
import { DeleteAndLeaveButton } from "@/components/ui/confirm-button";
import { CopyButton } from "@/components/ui/copy-button";
import { FormDialog } from "@/components/ui/form-dialog";
import { buttonClass } from "@/components/ui/styles";
import { RowActionButton } from "@/components/ui/row-action-button";
import { EndpointFields, endpointInput, type EndpointFieldValues } from "./endpoint-fields";

const secondary = (text: string) => ({ text, className: buttonClass("secondary") });

/** One of the controls that act at once (the dialogs and Delete bring their own buttons). */
function ControlButton({ disabled, onClick, children }: { disabled: boolean; onClick: () => void; children: React.ReactNode }) {
  return (
    <button type="button" disabled={disabled} className={buttonClass("secondary")} onClick={onClick}>
      {children}
    </button>
  );
}

/** A manager's controls of one endpoint: edit, signing secret (reveal, rotate), test event, enable/disable, delete. */
export function EndpointControls({
  slug,
  endpointId,
  enabled,
  fields,
}: {
  slug: string;
  endpointId: string;
  enabled: boolean;
  fields: EndpointFieldValues;
}) {
  const router = useRouter();
  const [secret, setSecret] = useState<string | null>(null);
  const [message, setMessage] = useState<{ tone: "status" | "alert"; text: string } | null>(null);
  const [pending, startTransition] = useTransition();

  function run(action: () => Promise<ActionResult<object>>, done: string, after?: (result: ActionResult<object>) => void) {
    startTransition(async () => {
      const result = await action();
      if (!result.ok) {
        setMessage({ tone: "alert", text: result.error });
        return;
      }
      after?.(result);
      setMessage({ tone: "status", text: done });
      router.refresh();
    });
  }

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-2">
        <FormDialog
          triggerLabel="Edit endpoint"
          trigger={secondary("Edit")}
          title="Edit webhook endpoint"
          description="Deliveries not yet made, and retries, go to the new URL. The signing secret stays the same."
          submitLabel="Save"
          pendingLabel="Saving…"
          unreachable="The server could not be reached; nothing was changed. Try again."
          submit={(form) => editEndpointAction(slug, endpointId, endpointInput(form))}
          notice={() => "Endpoint saved."}
          onDone={() => router.refresh()}
        >
          <EndpointFields idPrefix="edit-endpoint" initial={fields} />
        </FormDialog>
        <ControlButton
          disabled={pending}
          onClick={() =>
            secret
              ? setSecret(null)
              : run(
                  () => revealSecretAction(slug, endpointId),
                  "Signing secret shown.",
                  (result) => {
                    if (result.ok && "secret" in result) setSecret(String(result.secret));
                  },
                )
          }
        >
          {secret ? "Hide signing secret" : "Reveal signing secret"}
        </ControlButton>
        <RollDialog
          triggerLabel="Rotate signing secret"
          trigger={secondary("Rotate signing secret")}
          title="Rotate signing secret"
          description="A new secret signs every delivery from now on. While the old one keeps signing beside it, receivers verify with either: put the new secret on your receiver before then."
          submitLabel="Rotate secret"
          pendingLabel="Rotating…"
          unreachable="The server could not be reached; the secret was not rotated. Try again."
          expiry={{ id: "rotate-expiry", label: "The old secret stops signing", initial: "24h" }}
          submit={(expiry) => rotateSecretAction(slug, endpointId, expiry)}
          onDone={(result) => {
            setSecret(result.secret);
            setMessage({ tone: "status", text: "Signing secret rotated. The new secret is shown below." });
            router.refresh();
          }}
        />
        <ControlButton
          disabled={pending || !enabled}
          onClick={() => run(() => sendTestEventAction(slug, endpointId), "Test event queued; it appears in the delivery log below.")}
        >
          Send test event
        </ControlButton>
        <ControlButton
          disabled={pending}
          onClick={() =>
            run(() => setEndpointEnabledAction(slug, endpointId, !enabled), enabled ? "Endpoint disabled." : "Endpoint enabled.")
          }
        >
          {enabled ? "Disable" : "Enable"}
        </ControlButton>
        <DeleteAndLeaveButton
          label="Delete endpoint"
          title="Delete webhook endpoint?"
          description="No more events are sent to it, and its delivery log is deleted. This cannot be undone."
          confirmLabel="Delete endpoint"
          action={() => deleteEndpointAction(slug, endpointId)}
          leaveTo={`/t/${slug}/settings/webhooks`}
        />
      </div>
      {secret ? (
        <div className="flex items-center gap-2 rounded-md bg-slate-50 p-3">
          <code className="font-mono text-sm break-all text-slate-900" aria-label="Signing secret">
            {secret}
          </code>
          <CopyButton text={secret} label="Copy signing secret" />
        </div>
      ) : null}
      <p
        role={message?.tone === "alert" ? "alert" : "status"}
        className={message?.tone === "alert" ? "text-sm text-red-700" : "text-sm text-slate-700"}
      >
        {message?.text}
      </p>
    </div>
  );
}

export function ResendButton({ slug, endpointId, jobId }: { slug: string; endpointId: string; jobId: string }) {
  return <RowActionButton text="Resend" pendingText="Resending…" action={() => resendDeliveryAction(slug, endpointId, jobId)} />;
}
