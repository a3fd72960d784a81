"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { reportLeadAsSpamAction } from "@/app/t/[slug]/leads/[leadId]/actions";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { buttonClass } from "@/components/ui/styles";

/**
 * "Spam" on a lead's page (owners and admins): after a confirmation, with an optional "Also
 * block this sender", the lead moves to Leads → Spam; the page then goes to the list it was
 * opened from (the lead is no longer there).
 */
export function ReportSpamButton({
  slug,
  leadId,
  hasEmail,
  backHref,
}: {
  slug: string;
  leadId: string;
  hasEmail: boolean;
  backHref: string;
}) {
  const router = useRouter();
  const [block, setBlock] = useState(false);
  return (
    <ConfirmButton
      label="Spam"
      className={buttonClass("secondary")}
      title={`Move ${leadId} to spam?`}
      description={
        <>
          <p>
            The lead leaves the list for Leads → Spam, with its fields; its notes, its later submissions, its owner and status go, and
            webhooks and emails about it not sent yet are not sent. &ldquo;Not spam&rdquo; there brings it back as a new lead.
          </p>
          {hasEmail ? (
            <label className="mt-3 flex items-center gap-2 text-slate-800">
              <input
                type="checkbox"
                className="h-4 w-4 rounded border-slate-400 text-indigo-600"
                checked={block}
                onChange={(event) => setBlock(event.target.checked)}
              />
              Also block this sender (their e-mail address)
            </label>
          ) : null}
        </>
      }
      confirmLabel="Move to spam"
      pendingLabel="Moving…"
      action={() => reportLeadAsSpamAction(slug, leadId, block)}
      onDone={() => router.push(backHref)}
    >
      Spam
    </ConfirmButton>
  );
}
