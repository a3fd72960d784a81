import { db } from "../db/client";
import { env } from "../env";
import { CONTACT_SELECT } from "./new-lead";

// Duplicates: leads of a team that share an email or an E.164 number (the list's flag, a
// lead's "possible duplicates", an import's check of a batch) and a person's leads (erasure).

/** Values per IN list on SQLite (bound parameters; PostgreSQL takes the list as one array). */
const IN_CHUNK = 500;

type ContactMatch = { id: string; seq: number; emailKey: string | null; phone: string | null; mobileNo: string | null };

/**
 * The team's leads with one of these emails (lower-cased) or E.164 numbers (as phone or
 * mobile), oldest first: an import's duplicate check of one batch. One indexed query per
 * field (and, on SQLite, per chunk of values); raw, because through Prisma's query
 * compiler three 500-value lists cost more than the batch's whole insert.
 */
export async function findLeadsByContact(teamId: string, contacts: { emails: string[]; numbers: string[] }): Promise<ContactMatch[]> {
  const postgres = env().DATABASE_PROVIDER === "postgres";
  const byColumn = (column: "emailKey" | "phone" | "mobileNo", values: string[]): Promise<ContactMatch[]>[] => {
    if (!values.length) return [];
    const select = `SELECT "id", "seq", "emailKey", "phone", "mobileNo" FROM "Lead" WHERE "teamId" = `;
    if (postgres) return [db().$queryRawUnsafe<ContactMatch[]>(`${select}$1 AND "${column}" = ANY($2::text[])`, teamId, values)];
    const chunks: Promise<ContactMatch[]>[] = [];
    for (let i = 0; i < values.length; i += IN_CHUNK) {
      const chunk = values.slice(i, i + IN_CHUNK);
      chunks.push(
        db().$queryRawUnsafe<ContactMatch[]>(`${select}? AND "${column}" IN (${chunk.map(() => "?").join(", ")})`, teamId, ...chunk),
      );
    }
    return chunks;
  };
  const queries = [
    ...byColumn("emailKey", contacts.emails),
    ...byColumn("phone", contacts.numbers),
    ...byColumn("mobileNo", contacts.numbers),
  ];
  const found = new Map<string, ContactMatch>();
  for (const rows of await Promise.all(queries)) for (const row of rows) found.set(row.id, { ...row, seq: Number(row.seq) });
  return [...found.values()].sort((a, b) => a.seq - b.seq);
}

export type DuplicateProbe = { id: string; emailKey: string | null; phone: string | null; mobileNo: string | null };

/** Which of these leads share an email or an E.164 number with another lead of the team. */
export async function duplicateIds(teamId: string, leads: DuplicateProbe[]): Promise<Set<string>> {
  const emails = [...new Set(leads.flatMap((l) => (l.emailKey ? [l.emailKey] : [])))];
  const numbers = [...new Set(leads.flatMap((l) => [l.phone, l.mobileNo].filter((n): n is string => !!n)))];
  const [byEmail, byPhone, byMobile] = await Promise.all([
    emails.length ? db().lead.groupBy({ by: ["emailKey"], where: { teamId, emailKey: { in: emails } }, _count: { _all: true } }) : [],
    numbers.length ? db().lead.groupBy({ by: ["phone"], where: { teamId, phone: { in: numbers } }, _count: { _all: true } }) : [],
    numbers.length ? db().lead.groupBy({ by: ["mobileNo"], where: { teamId, mobileNo: { in: numbers } }, _count: { _all: true } }) : [],
  ]);
  const emailCount = new Map(byEmail.map((g) => [g.emailKey, g._count._all]));
  const numberCount = new Map<string, number>();
  for (const g of byPhone) if (g.phone) numberCount.set(g.phone, (numberCount.get(g.phone) ?? 0) + g._count._all);
  for (const g of byMobile) if (g.mobileNo) numberCount.set(g.mobileNo, (numberCount.get(g.mobileNo) ?? 0) + g._count._all);

  const found = new Set<string>();
  for (const lead of leads) {
    if (lead.emailKey && (emailCount.get(lead.emailKey) ?? 0) > 1) found.add(lead.id);
    for (const number of new Set([lead.phone, lead.mobileNo])) {
      if (!number) continue;
      // The lead's own phone and mobile may hold the same number: count it once per field it fills.
      const own = (lead.phone === number ? 1 : 0) + (lead.mobileNo === number ? 1 : 0);
      if ((numberCount.get(number) ?? 0) > own) found.add(lead.id);
    }
  }
  return found;
}

export type DuplicateLead = { id: string; name: string; email: string | null; createdAt: Date; reasons: ("email" | "phone")[] };

/** Other leads of the same team with the same email or the same E.164 phone number. */
export async function findPossibleDuplicates(lead: DuplicateProbe & { teamId: string }): Promise<DuplicateLead[]> {
  const numbers = [lead.phone, lead.mobileNo].filter((n): n is string => !!n);
  // teamId inside each branch, as in listLeads: a MULTI-INDEX OR plan, not a walk of the team's leads.
  const teamId = lead.teamId;
  const match = [
    ...(lead.emailKey ? [{ teamId, emailKey: lead.emailKey }] : []),
    ...(numbers.length
      ? [
          { teamId, phone: { in: numbers } },
          { teamId, mobileNo: { in: numbers } },
        ]
      : []),
  ];
  if (!match.length) return [];
  const rows = await db().lead.findMany({
    // No outer teamId: with it SQLite prefers walking (teamId, seq) to skip the sort.
    where: { id: { not: lead.id }, OR: match },
    orderBy: { seq: "desc" },
    take: 50,
    select: { id: true, firstName: true, lastName: true, email: true, emailKey: true, phone: true, mobileNo: true, createdAt: true },
  });
  return rows.map((row) => ({
    id: row.id,
    name: [row.firstName, row.lastName].filter(Boolean).join(" "),
    email: row.email,
    createdAt: row.createdAt,
    reasons: [
      ...(lead.emailKey && row.emailKey === lead.emailKey ? (["email"] as const) : []),
      ...(numbers.some((n) => n === row.phone || n === row.mobileNo) ? (["phone"] as const) : []),
    ],
  }));
}

export type PersonLead = {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  mobileNo: string | null;
  createdAt: Date;
  /** How it matched: the email or number asked for, or a possible duplicate of such a lead. */
  reason: "email" | "phone" | "duplicate";
};

/** At most this many leads are listed for one person (a person with more is a data problem). */
const PERSON_LEADS_LIMIT = 500;

/**
 * The team's leads with this email (lower-cased) or E.164 number (as phone or mobile), and
 * the possible duplicates of those (the same email or number as any of them), newest first.
 */
export async function findPersonLeads(teamId: string, person: { email: string | null; phone: string | null }): Promise<PersonLead[]> {
  const select = CONTACT_SELECT;
  const byContact = (emails: string[], numbers: string[]) => [
    ...emails.map((emailKey) => ({ teamId, emailKey })),
    ...(numbers.length
      ? [
          { teamId, phone: { in: numbers } },
          { teamId, mobileNo: { in: numbers } },
        ]
      : []),
  ];
  const asked = byContact(person.email ? [person.email] : [], person.phone ? [person.phone] : []);
  if (!asked.length) return [];
  const direct = await db().lead.findMany({ where: { OR: asked }, orderBy: { seq: "desc" }, take: PERSON_LEADS_LIMIT, select });
  const emails = [...new Set(direct.flatMap((l) => (l.emailKey && l.emailKey !== person.email ? [l.emailKey] : [])))];
  const numbers = [...new Set(direct.flatMap((l) => [l.phone, l.mobileNo]).filter((n): n is string => !!n && n !== person.phone))];
  const related = byContact(emails, numbers);
  const duplicates = related.length
    ? await db().lead.findMany({
        where: { id: { notIn: direct.map((l) => l.id) }, OR: related },
        orderBy: { seq: "desc" },
        take: PERSON_LEADS_LIMIT,
        select,
      })
    : [];
  const reasonOf = (lead: (typeof direct)[number]): PersonLead["reason"] =>
    person.email && lead.emailKey === person.email ? "email" : "phone";
  return [
    ...direct.map((lead) => ({ lead, reason: reasonOf(lead) })),
    ...duplicates.map((lead) => ({ lead, reason: "duplicate" as const })),
  ]
    .sort((a, b) => b.lead.seq - a.lead.seq)
    .map(({ lead, reason }) => ({
      id: lead.id,
      name: [lead.firstName, lead.lastName].filter(Boolean).join(" "),
      email: lead.email,
      phone: lead.phone,
      mobileNo: lead.mobileNo,
      createdAt: lead.createdAt,
      reason,
    }));
}
