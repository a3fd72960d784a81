import { db } from "../db/client";

// What an assignment email or a New-lead reminder is checked against and says when it is
// sent (assignment-email.ts): the recipient's membership of the team and their choice, the
// team's names, the lead as it is now. Read at send time, not queued: a member who left or
// turned the emails off, or a lead changed or deleted since, is seen.

export type AssignmentEmailView = {
  member: { email: string; role: string; notifyAssignments: boolean } | null;
  team: { slug: string; name: string } | null;
  lead: {
    name: string;
    organization: string;
    email: string | null;
    source: string;
    status: string;
    ownerId: string | null;
  } | null;
};

export async function readAssignmentEmailView(options: { teamId: string; userId: string; leadId: string }): Promise<AssignmentEmailView> {
  const { teamId, userId, leadId } = options;
  const [membership, team, lead] = await Promise.all([
    db().membership.findUnique({
      where: { userId_teamId: { userId, teamId } },
      select: { role: true, notifyAssignments: true, user: { select: { email: true } } },
    }),
    db().team.findUnique({ where: { id: teamId }, select: { slug: true, name: true } }),
    db().lead.findFirst({
      where: { id: leadId, teamId },
      select: {
        firstName: true,
        lastName: true,
        organization: true,
        email: true,
        status: true,
        ownerId: true,
        source: { select: { name: true } },
      },
    }),
  ]);
  return {
    member: membership && { email: membership.user.email, role: membership.role, notifyAssignments: membership.notifyAssignments },
    team,
    lead: lead && {
      name: [lead.firstName, lead.lastName].filter(Boolean).join(" "),
      organization: lead.organization,
      email: lead.email,
      source: lead.source.name,
      status: lead.status,
      ownerId: lead.ownerId,
    },
  };
}
