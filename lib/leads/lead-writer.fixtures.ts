import fc from "fast-check";
import type { DatabaseProvider } from "../db/database-url";
import { db } from "../db/client";
import type { LeadFields } from "./lead-writer";

// Shared setup of the lead writer's tests (lead-writer-*.test.ts): Prisma's own list of a
// model's columns, and generated leads (fast-check) to write through the hot path. Not a test
// file itself; each test file calls useTestDatabase() before using any of this.

type Field = { name: string; kind: string };
export const modelFields = (model: string): string[] => {
  const dataModel = (db() as unknown as { _runtimeDataModel: { models: Record<string, { fields: Field[] }> } })._runtimeDataModel;
  return dataModel.models[model]!.fields.filter((f) => f.kind === "scalar")
    .map((f) => f.name)
    .sort();
};

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.constantFrom("Ada", "Díaz", "ﬁle", "O'Brien", "\u0000nul", 'a"b\\c', "😀", "$type", "__proto__"),
);
const optionalText = fc.option(text, { nil: null });
const extraValue = fc.oneof(text, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean());
const extraFields = fc.dictionary(fc.oneof(text, fc.constantFrom("__proto__", "$type", "constructor")), extraValue, { maxKeys: 5 });

/** Generated leads of the team `teamId`: every field, with awkward text and extra fields. */
export const leadFieldsOf = (teamId: string): fc.Arbitrary<LeadFields> =>
  fc.record({
    teamId: fc.constant(teamId),
    apiKeyId: fc.option(fc.stringMatching(/^[0-9a-f]{20}$/), { nil: null }),
    formId: fc.option(fc.constant("form_abc"), { nil: null }),
    connectionId: fc.option(fc.constant("cmconnection0000000000000"), { nil: null }),
    firstName: text.filter((s) => s.length > 0),
    lastName: optionalText,
    email: optionalText,
    phone: optionalText,
    phoneCountryCode: optionalText,
    phoneNational: optionalText,
    mobileNo: optionalText,
    mobileCountryCode: optionalText,
    mobileNational: optionalText,
    skippedPhone: optionalText,
    skippedMobileNo: optionalText,
    skippedWebsite: optionalText,
    organization: text,
    jobTitle: optionalText,
    website: optionalText,
    territory: optionalText,
    industry: optionalText,
    annualRevenue: optionalText,
    noOfEmployees: optionalText,
    utmSource: optionalText,
    utmMedium: optionalText,
    utmCampaign: optionalText,
    utmTerm: optionalText,
    utmContent: optionalText,
    extraFields,
  });

// PostgreSQL text cannot hold NUL; the intake refuses such input before it gets here
// (lib/leads/lead-input-schema.ts), so the comparison leaves it out there.
export const storableOn = (provider: DatabaseProvider) => (fields: LeadFields) =>
  provider === "sqlite" || !JSON.stringify(fields).includes("\\u0000");
