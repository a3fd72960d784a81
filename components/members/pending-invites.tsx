"use client";

import { useState, useTransition } from "react";
import { regenerateInviteAction, revokeInviteAction } from "@/app/t/[slug]/settings/members/actions";
import type { PendingInvite } from "@/lib/teams/invite-store";
import { Badge } from "@/components/ui/badge";
import { CopyButton } from "@/components/ui/copy-button";
import { DateTime } from "@/components/ui/date-time";
import { buttonClass, cardClass, inputClass } from "@/components/ui/styles";
import { ROLE_LABEL } from "./role-label";

export function PendingInvites({ slug, invites }: { slug: string; invites: PendingInvite[] }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  // The new link of one invite, shown once, like the first one.
  const [fresh, setFresh] = useState<{ email: string; link: string } | null>(null);
  if (!invites.length) return null;
  return (
    <section aria-labelledby="pending-invites-heading" className={`${cardClass} p-5`}>
      <h3 id="pending-invites-heading" className="text-sm font-semibold text-slate-900">
        Pending invites
      </h3>
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <ul className="mt-3 divide-y divide-slate-100">
        {invites.map((invite) => (
          <li key={invite.id} className="flex flex-wrap items-center justify-between gap-3 py-2.5 text-sm">
            <span className="min-w-0 break-words">
              <span className="font-medium text-slate-900">{invite.email}</span> {invite.expired ? <Badge tone="red">Expired</Badge> : null}{" "}
              <span className="text-slate-500">
                · {ROLE_LABEL[invite.role]} · {invite.expired ? "expired" : "expires"} <DateTime value={invite.expiresAt} />
              </span>
            </span>
            <span className="flex shrink-0 gap-2">
              <button
                type="button"
                disabled={pending}
                aria-label={`New link for ${invite.email}`}
                onClick={() =>
                  startTransition(async () => {
                    const result = await regenerateInviteAction(slug, invite.id).catch(() => ({
                      ok: false as const,
                      error: "The server could not be reached; try again.",
                    }));
                    setError(result.ok ? null : result.error);
                    setFresh(result.ok ? { email: result.email, link: result.link } : null);
                  })
                }
                className={buttonClass("secondary", "sm")}
              >
                New link
              </button>
              <button
                type="button"
                disabled={pending}
                aria-label={`Revoke invite for ${invite.email}`}
                onClick={() =>
                  startTransition(async () => {
                    const result = await revokeInviteAction(slug, invite.id);
                    setError(result.ok ? null : result.error);
                  })
                }
                className={buttonClass("secondary", "sm")}
              >
                Revoke
              </button>
            </span>
          </li>
        ))}
      </ul>
      {fresh ? (
        <div className="mt-3 rounded-md bg-indigo-50 p-3 text-sm text-indigo-900 ring-1 ring-indigo-200">
          <p className="font-medium">New invite link for {fresh.email} (the old link no longer works)</p>
          <div className="mt-2 flex items-center gap-1">
            <label htmlFor="regenerated-invite-link" className="sr-only">
              New invite link
            </label>
            <input
              id="regenerated-invite-link"
              readOnly
              value={fresh.link}
              onFocus={(e) => e.currentTarget.select()}
              className={`${inputClass} font-mono text-xs`}
            />
            <CopyButton text={fresh.link} label={`Copy new invite link for ${fresh.email}`} />
          </div>
        </div>
      ) : null}
    </section>
  );
}
