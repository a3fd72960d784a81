import { db } from "../db/client";
import { membersAmong } from "../routing/assignment-rule-store";
import { NO_ASSIGNMENT, routesAnyone, type ImportAssignChoice } from "../routing/import-assignment";
import { loadRouting } from "../routing/routing-snapshot";
import { listMembers } from "../teams/team-store";
import { assigneeName, type ImportRecord } from "./import-store";

// An import's choice of whom its leads go to (docs/import.md, docs/routing.md "Imports"):
// what the form offers, what starting it accepts, how the import's page names it. The
// assignment itself, batch by batch, is lib/routing/import-assignment.ts.

export type AssignmentOptions = {
  /** The team's members, to assign every lead to one of them. */
  members: { id: string; label: string }[];
  /** Whether "by the team's assignment rules" is offered: an enabled rule, or a fallback member. */
  rules: boolean;
};

export async function assignmentOptions(teamId: string): Promise<AssignmentOptions> {
  const [members, routing] = await Promise.all([listMembers(teamId), loadRouting(teamId)]);
  return {
    members: members.map((member) => ({ id: member.userId, label: member.name ? `${member.name} (${member.email})` : member.email })),
    rules: routesAnyone(routing),
  };
}

/**
 * The choice as an import stores it, or why it is refused: "member" needs a member of the
 * team; "rules" a team whose rules can assign someone (they may change later: each batch
 * applies the rules of its time).
 */
export async function acceptedAssignment(
  teamId: string,
  choice: ImportAssignChoice = NO_ASSIGNMENT,
): Promise<{ ok: true; choice: ImportAssignChoice } | { ok: false; error: string }> {
  if (choice.mode === "member") {
    const members = choice.userId ? await membersAmong(db(), teamId, [choice.userId]) : new Set<string>();
    if (!members.has(choice.userId ?? "")) return { ok: false, error: "Choose a member of the team to assign the imported leads to." };
    return { ok: true, choice };
  }
  if (choice.mode === "rules" && !routesAnyone(await loadRouting(teamId))) {
    return {
      ok: false,
      error:
        "The team has no enabled assignment rule and no fallback member: set them up in Settings → Lead Routing, or choose another way.",
    };
  }
  return { ok: true, choice: { mode: choice.mode, userId: null } };
}

/** The choice in the import's audit event: the mode, and the member's user id with "member". */
export function assignmentDetails(choice: ImportAssignChoice): { assign: string; assignUserId?: string } {
  return choice.mode === "member" && choice.userId ? { assign: choice.mode, assignUserId: choice.userId } : { assign: choice.mode };
}

/** What the import's page says of its choice. */
export async function assignmentLabel(record: Pick<ImportRecord, "assignMode" | "assignUserId">): Promise<string> {
  if (record.assignMode === "rules") return "Assigned by the rules";
  if (record.assignMode !== "member" || !record.assignUserId) return "Unassigned";
  return `Assigned to ${(await assigneeName(record.assignUserId)) ?? "a deleted user"}`;
}
