"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { deleteChatAction, editChatAction, setChatEnabledAction, testChatAction } from "@/app/t/[slug]/settings/notifications/actions";
import type { ActionResult } from "@/lib/auth/require-team-role";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { FormDialog } from "@/components/ui/form-dialog";
import { buttonClass } from "@/components/ui/styles";
import type { NewLeadFilterChoices } from "@/lib/chat/new-lead-filter";
import { ChatFields, chatInput, type ChatFieldValues } from "./chat-fields";

/** A manager's controls of one chat destination: edit what is posted, test message, enable/disable, delete. */
export function ChatControls({
  slug,
  id,
  name,
  enabled,
  fields,
  choices,
}: {
  slug: string;
  id: string;
  name: string;
  enabled: boolean;
  fields: ChatFieldValues;
  choices: NewLeadFilterChoices;
}) {
  const router = useRouter();
  const [message, setMessage] = useState<{ tone: "status" | "alert"; text: string } | null>(null);
  const [pending, startTransition] = useTransition();

  function run(action: () => Promise<ActionResult>, done: string) {
    startTransition(async () => {
      const result = await action();
      setMessage(result.ok ? { tone: "status", text: done } : { tone: "alert", text: result.error });
      if (result.ok) router.refresh();
    });
  }

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-2">
        <FormDialog
          triggerLabel={`Edit ${name}`}
          trigger={{ text: "Edit", className: buttonClass("secondary") }}
          title="Edit chat destination"
          description="What is posted here from now on. The URL stays the same: to change it, add the new one and delete this."
          submitLabel="Save"
          pendingLabel="Saving…"
          unreachable="The server could not be reached; nothing was changed. Try again."
          submit={(form) => editChatAction(slug, id, chatInput(form))}
          notice={() => "Chat destination saved."}
          onDone={() => router.refresh()}
        >
          <ChatFields idPrefix={`edit-${id}`} initial={fields} choices={choices} />
        </FormDialog>
        <button
          type="button"
          disabled={pending || !enabled}
          aria-label={`Send a test message to ${name}`}
          className={buttonClass("secondary")}
          onClick={() => run(() => testChatAction(slug, id), "Test message queued: it shows in the delivery log within seconds.")}
        >
          Send a test message
        </button>
        <button
          type="button"
          disabled={pending}
          aria-label={`${enabled ? "Disable" : "Enable"} ${name}`}
          className={buttonClass("secondary")}
          onClick={() => run(() => setChatEnabledAction(slug, id, !enabled), enabled ? "Disabled." : "Enabled.")}
        >
          {enabled ? "Disable" : "Enable"}
        </button>
        <ConfirmButton
          label={`Delete ${name}`}
          className={buttonClass("danger")}
          title={`Delete ${name}?`}
          description="Nothing more is posted to this channel, and its delivery log goes. The webhook itself stays in the chat until you delete it there."
          confirmLabel="Delete"
          pendingLabel="Deleting…"
          action={() => deleteChatAction(slug, id)}
          onDone={() => router.refresh()}
        >
          Delete
        </ConfirmButton>
      </div>
      <p
        role={message?.tone === "alert" ? "alert" : "status"}
        className={message?.tone === "alert" ? "text-sm text-red-700" : "text-sm text-slate-700"}
      >
        {message?.text}
      </p>
    </div>
  );
}
