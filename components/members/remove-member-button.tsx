"use client";

import { removeMemberAction } from "@/app/t/[slug]/settings/members/actions";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { buttonClass } from "@/components/ui/styles";

export function RemoveMemberButton({ slug, userId, email }: { slug: string; userId: string; email: string }) {
  return (
    <ConfirmButton
      label={`Remove ${email}`}
      className={buttonClass("ghost", "sm")}
      title="Remove member?"
      description={<>{email} loses access to this team at once.</>}
      confirmLabel="Remove"
      action={async () => {
        const result = await removeMemberAction(slug, userId);
        // Removing yourself ends your access: the page would now be a 404. A full load, so
        // nothing of the team stays in the client router's cache.
        // eslint-disable-next-line @next/next/no-location-assign-relative-destination
        if (result.ok && result.removedSelf) window.location.assign("/");
        return result;
      }}
    >
      Remove
    </ConfirmButton>
  );
}
