"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { deleteConnectionAction, rollConnectionUrlAction, setConnectionEnabledAction } from "@/app/t/[slug]/settings/connections/actions";
import { ROLL_CHOICES } from "@/lib/api-keys/key-expiry";
import type { BuilderGuide } from "@/lib/connections/builder-guides";
import { ExpirySelect } from "@/components/api-keys/key-lifecycle-buttons";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { Field } from "@/components/ui/field";
import { FormDialog } from "@/components/ui/form-dialog";
import { FormError } from "@/components/ui/form-error";
import { buttonClass } from "@/components/ui/styles";
import { useActionRunner } from "@/components/ui/use-action-runner";
import { ShownOnce } from "./shown-once";

/** A manager's controls of one connection: roll its URL, turn it off or on, delete it. */
export function ConnectionControls({
  slug,
  connectionId,
  name,
  enabled,
  guide,
}: {
  slug: string;
  connectionId: string;
  name: string;
  enabled: boolean;
  guide: BuilderGuide;
}) {
  const router = useRouter();
  const { pending, error, run } = useActionRunner();
  const [rolled, setRolled] = useState<{ url: string; oldWorksUntil: string | null } | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-2">
        <FormDialog
          triggerLabel="Roll URL"
          trigger={{ text: "Roll URL", className: buttonClass("secondary") }}
          title="Roll the connection's URL"
          description="A new URL, shown once, to paste into the form builder. The old one keeps working until the time you choose, then is refused."
          submitLabel="Roll URL"
          pendingLabel="Rolling…"
          unreachable="The server could not be reached; the URL was not rolled. Try again."
          submit={(form) => rollConnectionUrlAction(slug, connectionId, String(form.get("expiry") ?? ""))}
          onDone={(result) => {
            setRolled({ url: result.url, oldWorksUntil: result.oldWorksUntil });
            setStatus("URL rolled. The new URL is shown below, once.");
            router.refresh();
          }}
        >
          <Field id="roll-expiry" label="The old URL stops working">
            <ExpirySelect id="roll-expiry" choices={ROLL_CHOICES} initial="1h" />
          </Field>
        </FormDialog>
        <button
          type="button"
          disabled={pending}
          className={buttonClass("secondary")}
          onClick={() =>
            run(
              () => setConnectionEnabledAction(slug, connectionId, !enabled),
              (result) => {
                if (!result.ok) return;
                setStatus(enabled ? "Connection turned off: its deliveries are refused." : "Connection turned on.");
                router.refresh();
              },
            )
          }
        >
          {enabled ? "Turn off" : "Turn on"}
        </button>
        <ConfirmButton
          label={`Delete connection ${name}`}
          className={buttonClass("danger")}
          title="Delete connection?"
          description="Its URL is refused from now on and its log is deleted; the leads it made stay. This cannot be undone."
          confirmLabel="Delete connection"
          pendingLabel="Deleting…"
          action={async () => {
            const result = await deleteConnectionAction(slug, connectionId);
            if (result.ok) router.push(`/t/${slug}/settings/connections`);
            return result;
          }}
        >
          Delete
        </ConfirmButton>
      </div>
      <FormError error={error} className="text-sm text-red-700" />
      <p role="status" className="text-sm text-slate-700">
        {status}
      </p>
      {rolled ? <ShownOnce url={rolled.url} signingSecret={null} guide={guide} /> : null}
    </div>
  );
}
