"use client";

import { useState, useTransition } from "react";
import { setNewLeadEmailsAction } from "@/app/t/[slug]/settings/general/actions";
import { cardClass } from "@/components/ui/styles";

/** The signed-in member's own new-lead email choice for this team. */
export function NotificationsForm({ slug, enabled, configured }: { slug: string; enabled: boolean; configured: boolean }) {
  const [checked, setChecked] = useState(enabled);
  const [message, setMessage] = useState<{ tone: "status" | "alert"; text: string } | null>(null);
  const [pending, startTransition] = useTransition();

  function toggle(next: boolean) {
    setChecked(next);
    startTransition(async () => {
      const result = await setNewLeadEmailsAction(slug, next);
      if (result.ok) {
        setMessage({ tone: "status", text: next ? "You will get an email for each new lead." : "New-lead emails are off." });
      } else {
        setChecked(!next);
        setMessage({ tone: "alert", text: result.error });
      }
    });
  }

  return (
    <div className={`${cardClass} max-w-2xl space-y-3 p-6`}>
      <label className="flex items-start gap-3 text-sm text-slate-800">
        <input
          type="checkbox"
          checked={checked}
          disabled={pending || (!configured && !checked)}
          onChange={(event) => toggle(event.target.checked)}
          aria-describedby="new-lead-emails-help"
          className="mt-0.5 h-4 w-4 rounded border-slate-300"
        />
        <span className="font-medium">Email me about each new lead of this team</span>
      </label>
      <p id="new-lead-emails-help" className="text-sm text-slate-600">
        {configured
          ? "Only you see this choice. Each email names the lead and links to it."
          : "Email is not configured on this server: an operator sets SMTP_URL to turn new-lead emails on."}
      </p>
      <p
        role={message?.tone === "alert" ? "alert" : "status"}
        className={message?.tone === "alert" ? "text-sm text-red-700" : "text-sm text-slate-700"}
      >
        {message?.text}
      </p>
    </div>
  );
}
