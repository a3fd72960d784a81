"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { deleteConnectionAction, rollConnectionUrlAction, setConnectionEnabledAction } from "@/app/t/[slug]/settings/connections/actions";
import { BUILDER_GUIDES } from "@/lib/connections/builder-guides";
import type { BuilderId } from "@/lib/connections/builders";
import { RollDialog } from "@/components/api-keys/expiry-select";
import { DeleteAndLeaveButton } from "@/components/ui/confirm-button";
import { ActionOutcome } from "@/components/ui/form-error";
import { buttonClass } from "@/components/ui/styles";
import { useActionRunner } from "@/components/ui/use-action-runner";
import { ShownOnce } from "./shown-once";

/** A manager's controls of one connection: roll its URL, turn it off or on, delete it. */
export function ConnectionControls({
  slug,
  connectionId,
  name,
  enabled,
  builder,
}: {
  slug: string;
  connectionId: string;
  name: string;
  enabled: boolean;
  /** The builder's id, not its guide: a guide may hold a function (its script), which a server page cannot pass to this client component. */
  builder: BuilderId;
}) {
  const guide = BUILDER_GUIDES[builder];
  const router = useRouter();
  const { pending, error, run } = useActionRunner();
  const [rolled, setRolled] = useState<{ url: string; oldWorksUntil: string | null } | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-2">
        <RollDialog
          triggerLabel="Roll URL"
          trigger={{ text: "Roll URL", className: buttonClass("secondary") }}
          title="Roll the connection's URL"
          description="A new URL, shown once, to paste into the form builder. The old one keeps working until the time you choose, then is refused."
          submitLabel="Roll URL"
          pendingLabel="Rolling…"
          unreachable="The server could not be reached; the URL was not rolled. Try again."
          expiry={{ id: "roll-expiry", label: "The old URL stops working", initial: "1h" }}
          submit={(expiry) => rollConnectionUrlAction(slug, connectionId, expiry)}
          onDone={(result) => {
            setRolled({ url: result.url, oldWorksUntil: result.oldWorksUntil });
            setStatus("URL rolled. The new URL is shown below, once.");
            router.refresh();
          }}
        />
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
        <DeleteAndLeaveButton
          label={`Delete connection ${name}`}
          title="Delete connection?"
          description="Its URL is refused from now on and its log is deleted; the leads it made stay. This cannot be undone."
          confirmLabel="Delete connection"
          action={() => deleteConnectionAction(slug, connectionId)}
          leaveTo={`/t/${slug}/settings/connections`}
        />
      </div>
      <ActionOutcome error={error} status={status} />
      {rolled ? <ShownOnce url={rolled.url} signingSecret={null} guide={guide} /> : null}
    </div>
  );
}
