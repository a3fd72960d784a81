import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { webActor, type AuditActor } from "../audit/audit-log";
import { FOREIGN_REQUEST_MESSAGE, originProblem } from "../http/same-origin";
import { MANAGERS } from "../teams/roles";
import { findMembership, ROLES, type Role, type Team } from "../teams/team-store";
import { currentUser, type SessionUser } from "./session";

// The one gate of every team page and server action: who is signed in, and what role
// they hold in the team named by the URL. Roles come from the database on each call,
// so a role change or removal takes effect on the next request.

/** `canManage`: the role is an owner's or an admin's (MANAGERS), who change what members only see. */
export type TeamAccess = { user: SessionUser; team: Team; role: Role; canManage: boolean };

export { MANAGERS };
export const OWNERS: readonly Role[] = ["owner"];

type Denial = "signed-out" | "not-member" | "forbidden";

export class AccessDenied extends Error {
  constructor(readonly reason: Denial) {
    super(
      reason === "signed-out"
        ? "Your session has ended; sign in again."
        : reason === "forbidden"
          ? "Your role in this team does not allow this."
          : "Team not found.",
    );
    this.name = "AccessDenied";
  }
}

/** The caller's access to the team, or throws AccessDenied. A team the caller is not in is "not found". */
export async function requireTeamRole(slug: unknown, allowed: readonly Role[] = ROLES): Promise<TeamAccess> {
  const user = await currentUser();
  if (!user) throw new AccessDenied("signed-out");
  if (typeof slug !== "string" || slug.length > 100) throw new AccessDenied("not-member");
  const membership = await findMembership({ userId: user.id, slug });
  if (!membership) throw new AccessDenied("not-member");
  if (!allowed.includes(membership.role)) throw new AccessDenied("forbidden");
  return { user, team: membership.team, role: membership.role, canManage: MANAGERS.includes(membership.role) };
}

/** For pages: signed out goes to /signin, anything else denied is a 404. */
export async function requireTeamPage(slug: string, returnTo: string, allowed: readonly Role[] = ROLES): Promise<TeamAccess> {
  try {
    return await requireTeamRole(slug, allowed);
  } catch (error) {
    if (!(error instanceof AccessDenied)) throw error;
    if (error.reason === "signed-out") redirect(`/signin?callbackUrl=${encodeURIComponent(returnTo)}`);
    notFound();
  }
}

export type ActionResult<T extends object = object> = ({ ok: true } & T) | { ok: false; error: string };

/** What a server action gets: the access, and the actor its audit events record (user and address). */
export type ActionAccess = TeamAccess & { actor: AuditActor };

/**
 * For server actions: refuses a request whose Origin is missing or not this site
 * (lib/http/same-origin.ts), checks the session and role, then runs the action. A
 * refusal becomes { ok: false, error } instead of an exception the client cannot read.
 */
export async function withTeamRole<T extends object>(
  slug: unknown,
  allowed: readonly Role[],
  action: (access: ActionAccess) => Promise<ActionResult<T>>,
): Promise<ActionResult<T>> {
  const requestHeaders = await headers();
  if (originProblem(requestHeaders)) return { ok: false, error: FOREIGN_REQUEST_MESSAGE };
  let access: TeamAccess;
  try {
    access = await requireTeamRole(slug, allowed);
  } catch (error) {
    if (error instanceof AccessDenied) return { ok: false, error: error.message };
    throw error;
  }
  return action({ ...access, actor: webActor(access.user.id, requestHeaders) });
}
