// Team roles and what each may do with invites. Kept apart from the stores so both the
// team and the invite store can use them without importing each other.

export type Role = "owner" | "admin" | "member";
export const ROLES: readonly Role[] = ["owner", "admin", "member"];
/** The roles that change what members only see (a team's settings). */
export const MANAGERS: readonly Role[] = ["owner", "admin"];

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

// Owners invite any role, admins invite admins and members, members invite no one.
const INVITABLE: Record<Role, readonly Role[]> = { owner: ROLES, admin: ["admin", "member"], member: [] };

/** The roles a member holding `role` (null: not a member) may invite. */
export function invitableRoles(role: Role | null): readonly Role[] {
  return role ? INVITABLE[role] : [];
}

export function canInvite(inviterRole: Role | null, invitedRole: Role): boolean {
  return invitableRoles(inviterRole).includes(invitedRole);
}
