import { db } from "../db/client";
import { formatLeadId } from "./lead-id";
import type { ExtraFieldValue } from "./parse-lead-input";

// Every database access for leads lives here.

export type NewLead = {
  teamId: string;
  apiKeyId: string | null;
  firstName: string;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  phoneCountryCode: string | null;
  phoneNational: string | null;
  mobileNo: string | null;
  mobileCountryCode: string | null;
  mobileNational: string | null;
  organization: string;
  sourceId: string;
  jobTitle: string | null;
  website: string | null;
  territory: string | null;
  industry: string | null;
  annualRevenue: string | null;
  noOfEmployees: string | null;
  currency: string;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  utmTerm: string | null;
  utmContent: string | null;
  extraFields: Record<string, ExtraFieldValue>;
};

const LEAD_COUNTER = "lead";

/**
 * Extra fields are caller-chosen names. Prisma's argument serialiser copies objects key by
 * key (so "__proto__" is dropped) and reads some keys as instructions ("$type",
 * "__prismaRawParameters__" replaces the whole value with its "values" field). Handing
 * the object over as a Raw tagged value, the form Prisma itself uses to escape "$type",
 * stores it exactly as sent.
 */
function asPlainJson(value: Record<string, ExtraFieldValue>) {
  return { toJSON: () => ({ $type: "Raw", value }) };
}

/**
 * Inserts a lead with the next CRM-LEAD id. The counter row is advanced in the same
 * transaction as the insert, so a failed insert returns its number (no gaps) and the
 * row lock serialises concurrent allocations (no duplicates), on every instance.
 */
export async function insertLead(lead: NewLead): Promise<string> {
  return db().$transaction(
    async (tx) => {
      // Raw: the same statement Prisma would send, without compiling it per call.
      const [row] = await tx.$queryRaw<{ value: number | bigint }[]>`
        UPDATE "Counter" SET "value" = "value" + 1 WHERE "name" = ${LEAD_COUNTER} RETURNING "value"`;
      if (!row) throw new Error(`The "${LEAD_COUNTER}" counter row is missing`);
      const counter = { value: Number(row.value) };
      const id = formatLeadId(counter.value);
      await tx.lead.create({
        data: {
          ...lead,
          id,
          seq: counter.value,
          emailKey: lead.email?.toLowerCase() ?? null,
          extraFields: asPlainJson(lead.extraFields),
        },
        select: { id: true },
      });
      return id;
    },
    { maxWait: 10_000, timeout: 10_000 },
  );
}

export function countLeads(teamId?: string): Promise<number> {
  return db().lead.count(teamId ? { where: { teamId } } : undefined);
}

export function findLead(options: { id: string; teamId: string }) {
  return db().lead.findFirst({
    where: { id: options.id, teamId: options.teamId },
    include: { source: { select: { name: true } } },
  });
}
