"use client";

import { useState } from "react";
import type { ActionResult } from "@/lib/auth/require-team-role";
import { Field } from "@/components/ui/field";
import { ActionOutcome } from "@/components/ui/form-error";
import { inputClass } from "@/components/ui/styles";
import { SubmitButton } from "@/components/ui/submit-button";
import { useFormAction } from "@/components/ui/use-form-action";

/** Your account → Chat mentions: the member's Slack member ID and Discord user ID, both optional. */
export function ChatIdsForm(props: {
  save: (form: FormData) => Promise<ActionResult>;
  slackUserId: string | null;
  discordUserId: string | null;
}) {
  const [saved, setSaved] = useState<string | null>(null);
  const { pending, error, onSubmit } = useFormAction(props.save, {
    unreachable: "The server could not be reached; your chat IDs were not saved. Try again.",
    onDone: () => setSaved("Chat IDs saved."),
  });
  return (
    <form
      onSubmit={(event) => {
        setSaved(null);
        onSubmit(event);
      }}
      className="max-w-sm space-y-4"
    >
      <Field id="slack-user-id" label="Slack member ID" optional>
        <input
          id="slack-user-id"
          name="slackUserId"
          maxLength={30}
          defaultValue={props.slackUserId ?? ""}
          placeholder="U012AB3CD"
          className={`${inputClass} mt-1.5 font-mono`}
        />
      </Field>
      <Field id="discord-user-id" label="Discord user ID" optional>
        <input
          id="discord-user-id"
          name="discordUserId"
          inputMode="numeric"
          maxLength={30}
          defaultValue={props.discordUserId ?? ""}
          placeholder="123456789012345678"
          className={`${inputClass} mt-1.5 font-mono`}
        />
      </Field>
      <ActionOutcome error={error} status={saved} />
      <SubmitButton pending={pending} label="Save chat IDs" pendingLabel="Saving…" />
    </form>
  );
}
