/** The team a submission is for, as every channel's lookup reads it with the channel (lib/intake/store-lead.ts). */
export type IntakeTeam = {
  id: string;
  slug: string;
  /** Where a number without a country code is read (spec 2.1). */
  defaultPhoneCountry: string | null;
  /** Days a lead stays open to a person's repeat submissions (lib/leads/repeats.ts); 0: never. */
  repeatWindowDays: number;
};
