"use client";

import { useActionState } from "react";
import { inviteMemberAction } from "@/app/t/[slug]/settings/members/actions";
import { CopyButton } from "@/components/ui/copy-button";
import { buttonClass, cardClass, inputClass, labelClass } from "@/components/ui/styles";

export function InviteForm({ slug, canInviteOwners }: { slug: string; canInviteOwners: boolean }) {
  const [state, action, pending] = useActionState(inviteMemberAction, null);
  return (
    <div className={`${cardClass} p-5`}>
      <h3 className="text-sm font-semibold text-slate-900">Invite a member</h3>
      <p className="mt-1 text-sm text-slate-600">You get a one-time link to send yourself; no email is sent. It expires in 7 days.</p>
      <form action={action} className="mt-4 flex flex-wrap items-end gap-3">
        <input type="hidden" name="slug" value={slug} />
        <div className="min-w-60 flex-1">
          <label htmlFor="invite-email" className={labelClass}>
            Email
          </label>
          <input id="invite-email" name="email" type="email" required maxLength={254} className={`${inputClass} mt-1.5`} />
        </div>
        <div>
          <label htmlFor="invite-role" className={labelClass}>
            Role
          </label>
          <select id="invite-role" name="role" defaultValue="member" className={`${inputClass} mt-1.5`}>
            <option value="member">Member</option>
            <option value="admin">Admin</option>
            {canInviteOwners ? <option value="owner">Owner</option> : null}
          </select>
        </div>
        <button type="submit" disabled={pending} className={buttonClass("primary")}>
          {pending ? "Creating…" : "Create invite link"}
        </button>
      </form>
      {state?.ok ? (
        <div role="status" className="mt-4 rounded-lg bg-emerald-50 p-4 text-sm text-emerald-900 ring-1 ring-emerald-200">
          <p className="font-medium">Invite link for {state.email}</p>
          <p className="mt-1 text-xs">Send it to them yourself. It works once and is shown only now.</p>
          <div className="mt-2 flex items-center gap-2">
            <label htmlFor="invite-link" className="sr-only">
              Invite link
            </label>
            <input
              id="invite-link"
              readOnly
              value={state.link}
              onFocus={(e) => e.currentTarget.select()}
              className={`${inputClass} font-mono text-xs`}
            />
            <CopyButton text={state.link} label="Copy invite link" />
          </div>
        </div>
      ) : state ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {state.error}
        </p>
      ) : null}
    </div>
  );
}
