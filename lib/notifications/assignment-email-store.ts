import { db } from "../db/client";
import { REQUEST_NAMES } from "../leads/request-names";

// What an assignment email or a New-lead reminder is checked against and says when it is
// sent (assignment-email.ts): the recipient's membership of the team and their choice, the
// team's names, the lead as it is now. Read at send time, not queued: a member who left or
// turned the emails off, or a lead changed or deleted since, is seen.

export type AssignmentEmailView = {
  member: { email: string; role: string; notifyAssignments: boolean; notifyNewLeads: boolean } | null;
  team: { slug: string; name: string } | null;
  lead: {
    name: string;
    organization: string;
    email: string | null;
    source: string;
    status: string;
    ownerId: string | null;
  } | null;
  /** A "submitted again" email's submission: what it sent that the lead does not hold now, by the request's names. */
  submission: { differs: [string, unknown][]; fields: Record<string, unknown> } | null;
};

/** A submission's fields (by the request's names) and the lead's column each is compared with. */
const COMPARED = REQUEST_NAMES.map(([column, name]) => [name, column] as const);

const asObject = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

const same = (a: unknown, b: unknown) =>
  typeof a === "string" && typeof b === "string"
    ? a.trim().toLowerCase() === b.trim().toLowerCase()
    : JSON.stringify(a) === JSON.stringify(b);

/** What a submission sent that the lead does not hold as it is now: fields in their order, then extra fields. */
export function submissionDiffers(fields: unknown, lead: Record<string, unknown>): [string, unknown][] {
  const sent = asObject(fields);
  const differs: [string, unknown][] = [];
  for (const [name, column] of COMPARED) {
    if (name in sent && !same(sent[name], lead[column])) differs.push([name, sent[name]]);
  }
  const extra = asObject(sent.extra_fields);
  const held = asObject(lead.extraFields);
  for (const [name, value] of Object.entries(extra)) if (!same(value, held[name])) differs.push([name, value]);
  return differs;
}

export async function readAssignmentEmailView(options: {
  teamId: string;
  userId: string;
  leadId: string;
  /** A "submitted again" email's submission; the lead's fields are read to compare with it. */
  submissionId?: string | null;
}): Promise<AssignmentEmailView> {
  const { teamId, userId, leadId } = options;
  const compared = options.submissionId ? { ...Object.fromEntries(COMPARED.map(([, column]) => [column, true])), extraFields: true } : {};
  const [membership, team, lead, submission] = await Promise.all([
    db().membership.findUnique({
      where: { userId_teamId: { userId, teamId } },
      select: { role: true, notifyAssignments: true, notifyNewLeads: true, user: { select: { email: true } } },
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
        ...compared,
      },
    }),
    options.submissionId
      ? db().leadSubmission.findFirst({ where: { id: options.submissionId, leadId, teamId }, select: { fields: true } })
      : null,
  ]);
  return {
    member: membership && {
      email: membership.user.email,
      role: membership.role,
      notifyAssignments: membership.notifyAssignments,
      notifyNewLeads: membership.notifyNewLeads,
    },
    team,
    lead: lead && {
      name: [lead.firstName, lead.lastName].filter(Boolean).join(" "),
      organization: lead.organization,
      email: lead.email,
      source: lead.source.name,
      status: lead.status,
      ownerId: lead.ownerId,
    },
    submission:
      submission && lead
        ? { differs: submissionDiffers(submission.fields, lead as Record<string, unknown>), fields: asObject(submission.fields) }
        : null,
  };
}
