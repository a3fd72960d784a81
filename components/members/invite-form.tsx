"use client";

import { useActionState } from "react";
import { inviteMemberAction } from "@/app/t/[slug]/settings/members/actions";
import { Field } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { cardClass, inputClass } from "@/components/ui/styles";
import { SubmitButton } from "@/components/ui/submit-button";
import { InviteLinkField } from "./invite-link-field";

export function InviteForm({ slug, canInviteOwners }: { slug: string; canInviteOwners: boolean }) {
  const [state, action, pending] = useActionState(inviteMemberAction, null);
  return (
    <div className={`${cardClass} p-5`}>
      <h3 className="text-sm font-semibold text-slate-900">Invite a member</h3>
      <p className="mt-1 text-sm text-slate-600">You get a one-time link to send yourself; no email is sent. It expires in 7 days.</p>
      <form action={action} className="mt-4 flex flex-wrap items-end gap-3">
        <input type="hidden" name="slug" value={slug} />
        <Field id="invite-email" label="Email" className="min-w-60 flex-1">
          <input id="invite-email" name="email" type="email" required maxLength={254} className={`${inputClass} mt-1.5`} />
        </Field>
        <Field id="invite-role" label="Role">
          <select id="invite-role" name="role" defaultValue="member" className={`${inputClass} mt-1.5`}>
            <option value="member">Member</option>
            <option value="admin">Admin</option>
            {canInviteOwners ? <option value="owner">Owner</option> : null}
          </select>
        </Field>
        <SubmitButton pending={pending} label="Create invite link" pendingLabel="Creating…" />
      </form>
      {state?.ok ? (
        <div role="status" className="mt-4 rounded-lg bg-emerald-50 p-4 text-sm text-emerald-900 ring-1 ring-emerald-200">
          <p className="font-medium">Invite link for {state.email}</p>
          <p className="mt-1 text-xs">Send it to them yourself. It works once and is shown only now.</p>
          <InviteLinkField
            id="invite-link"
            label="Invite link"
            link={state.link}
            copyLabel="Copy invite link"
            className="mt-2 flex items-center gap-2"
          />
        </div>
      ) : (
        <FormError error={state?.error} className="mt-3 text-sm text-red-700" />
      )}
    </div>
  );
}
