"use client";

import { addChatAction } from "@/app/t/[slug]/settings/notifications/actions";
import { FormDialog } from "@/components/ui/form-dialog";
import type { NewLeadFilterChoices } from "@/lib/chat/new-lead-filter";
import { ChatFields, ChatUrlFields, chatInput } from "./chat-fields";

export function AddChatDialog({ slug, choices }: { slug: string; choices: NewLeadFilterChoices }) {
  return (
    <FormDialog
      triggerLabel="Add chat destination"
      title="Add chat destination"
      description="Paste the channel's incoming-webhook URL from Slack, Microsoft Teams (Workflows), Discord, Google Chat or a Slack-compatible server. Anyone holding it can post into the channel: it is kept encrypted and shown masked once saved."
      submitLabel="Add destination"
      pendingLabel="Adding…"
      submit={(form) => addChatAction(slug, chatInput(form))}
      notice={() => "Chat destination added. Send a test message to check it."}
    >
      <ChatUrlFields idPrefix="chat" />
      <ChatFields idPrefix="chat" choices={choices} />
    </FormDialog>
  );
}
