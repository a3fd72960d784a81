"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { MANAGERS, OWNERS, withTeamRole, type ActionResult } from "@/lib/auth/require-team-role";
import { publicBaseUrl } from "@/lib/http/public-url";
import { createInvite } from "@/lib/teams/invite-changes";
import { findUnacceptedInvite, revokeInvite } from "@/lib/teams/invite-store";
import { changeMembership, LastOwnerError } from "@/lib/teams/membership-changes";
import { canInvite, isRole, type Role } from "@/lib/teams/roles";

// Owners and admins invite (only owners may invite owners) and revoke invites; only
// owners change roles and remove members, and the team always keeps an owner.

const membersPath = (slug: string) => `/t/${slug}/settings/members`;
const emailSchema = z.email("Enter a valid email address.").max(254);

export type InviteState = ActionResult<{ link: string; email: string }> | null;

export async function inviteMemberAction(_previous: InviteState, form: FormData): Promise<InviteState> {
  return withTeamRole<{ link: string; email: string }>(form.get("slug"), MANAGERS, async ({ team, user, role, actor }) => {
    const email = emailSchema.safeParse(String(form.get("email") ?? "").trim());
    if (!email.success) return { ok: false, error: "Enter a valid email address." };
    const invitedRole = form.get("role");
    if (!isRole(invitedRole)) return { ok: false, error: "Choose a role." };
    if (!canInvite(role, invitedRole)) return { ok: false, error: "Only owners can invite owners." };

    const invite = await createInvite({ teamId: team.id, email: email.data, role: invitedRole, createdById: user.id, actor });
    if (invite === "already-member") return { ok: false, error: `${email.data} is already a member of this team.` };
    revalidatePath(membersPath(team.slug));
    return { ok: true, email: invite.email, link: `${await publicBaseUrl()}/invite/${invite.token}` };
  });
}

export async function revokeInviteAction(slug: string, inviteId: string): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team }) => {
    const revoked = typeof inviteId === "string" && (await revokeInvite({ teamId: team.id, inviteId }));
    revalidatePath(membersPath(team.slug));
    return revoked ? { ok: true } : { ok: false, error: "That invite no longer exists." };
  });
}

async function updateMember(slug: string, userId: string, role: Role | null): Promise<ActionResult<{ removedSelf: boolean }>> {
  return withTeamRole<{ removedSelf: boolean }>(slug, OWNERS, async ({ team, user, actor }) => {
    if (typeof userId !== "string") return { ok: false, error: "Unknown member." };
    try {
      if (!(await changeMembership({ teamId: team.id, userId, role, actor })))
        return { ok: false, error: "That user is not a member of this team." };
    } catch (error) {
      if (error instanceof LastOwnerError) return { ok: false, error: error.message };
      throw error;
    }
    revalidatePath(`/t/${team.slug}`, "layout");
    return { ok: true, removedSelf: role === null && userId === user.id };
  });
}

export async function changeRoleAction(slug: string, userId: string, role: string): Promise<ActionResult> {
  if (!isRole(role)) return { ok: false, error: "Choose a role." };
  return updateMember(slug, userId, role);
}

export async function removeMemberAction(slug: string, userId: string): Promise<ActionResult<{ removedSelf: boolean }>> {
  return updateMember(slug, userId, null);
}

/**
 * A new link for a pending or expired invite (same address and role, 7 days from now):
 * the old link stops working. Audited like the invite itself.
 */
export async function regenerateInviteAction(slug: string, inviteId: string): Promise<ActionResult<{ link: string; email: string }>> {
  return withTeamRole<{ link: string; email: string }>(slug, MANAGERS, async ({ team, user, role, actor }) => {
    const existing = typeof inviteId === "string" ? await findUnacceptedInvite({ teamId: team.id, inviteId }) : null;
    if (!existing) return { ok: false, error: "That invite no longer exists." };
    if (!canInvite(role, existing.role)) return { ok: false, error: "Only owners can invite owners." };
    const invite = await createInvite({ teamId: team.id, email: existing.email, role: existing.role, createdById: user.id, actor });
    revalidatePath(membersPath(team.slug));
    if (invite === "already-member") return { ok: false, error: `${existing.email} is already a member of this team.` };
    return { ok: true, email: invite.email, link: `${await publicBaseUrl()}/invite/${invite.token}` };
  });
}
