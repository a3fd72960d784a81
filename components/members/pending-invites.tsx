"use client";

import { useState } from "react";
import { regenerateInviteAction, revokeInviteAction } from "@/app/t/[slug]/settings/members/actions";
import type { PendingInvite } from "@/lib/teams/invite-store";
import { Badge } from "@/components/ui/badge";
import { DateTime } from "@/components/ui/date-time";
import { FormError } from "@/components/ui/form-error";
import { buttonClass, cardClass } from "@/components/ui/styles";
import { useActionRunner } from "@/components/ui/use-action-runner";
import { InviteLinkField } from "./invite-link-field";
import { ROLE_LABEL } from "./role-label";

const unreachable = () => ({ ok: false as const, error: "The server could not be reached; try again." });

export function PendingInvites({ slug, invites }: { slug: string; invites: PendingInvite[] }) {
  const { pending, error, run } = useActionRunner();
  // The new link of one invite, shown once, like the first one.
  const [fresh, setFresh] = useState<{ email: string; link: string } | null>(null);
  if (!invites.length) return null;
  return (
    <section aria-labelledby="pending-invites-heading" className={`${cardClass} p-5`}>
      <h3 id="pending-invites-heading" className="text-sm font-semibold text-slate-900">
        Pending invites
      </h3>
      <FormError error={error} className="mt-2 text-sm text-red-700" />
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
                  run(
                    () => regenerateInviteAction(slug, invite.id).catch(unreachable),
                    (result) => setFresh(result.ok ? { email: result.email, link: result.link } : null),
                  )
                }
                className={buttonClass("secondary", "sm")}
              >
                New link
              </button>
              <button
                type="button"
                disabled={pending}
                aria-label={`Revoke invite for ${invite.email}`}
                onClick={() => run(() => revokeInviteAction(slug, invite.id))}
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
          <InviteLinkField
            id="regenerated-invite-link"
            label="New invite link"
            link={fresh.link}
            copyLabel={`Copy new invite link for ${fresh.email}`}
            className="mt-2 flex items-center gap-1"
          />
        </div>
      ) : null}
    </section>
  );
}
