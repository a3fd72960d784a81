"use client";

import { useState, useTransition } from "react";
import { revokeInviteAction } from "@/app/t/[slug]/settings/members/actions";
import type { PendingInvite } from "@/lib/teams/invite-store";
import { DateTime } from "@/components/ui/date-time";
import { buttonClass, cardClass } from "@/components/ui/styles";
import { ROLE_LABEL } from "./role-label";

export function PendingInvites({ slug, invites }: { slug: string; invites: PendingInvite[] }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
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
            <span>
              <span className="font-medium text-slate-900">{invite.email}</span>{" "}
              <span className="text-slate-500">
                · {ROLE_LABEL[invite.role]} · expires <DateTime value={invite.expiresAt} />
              </span>
            </span>
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
          </li>
        ))}
      </ul>
    </section>
  );
}
