import { readDriverBoolean } from "../db/driver";

/** The team a submission is for, as every channel's lookup reads it with the channel (lib/intake/store-lead.ts). */
export type IntakeTeam = {
  id: string;
  slug: string;
  /** Where a number without a country code is read (spec 2.1). */
  defaultPhoneCountry: string | null;
  /** Days a lead stays open to a person's repeat submissions (lib/leads/repeats.ts); 0: never. */
  repeatWindowDays: number;
  /** The spam score that sends a submission to the quarantine (docs/spam.md). */
  spamThreshold: number;
  /** Free-mail addresses score too. */
  spamBusinessOnly: boolean;
  /** A burst: more than this many leads in spamBurstMinutes from one address or sender; 0: off. */
  spamBurstLimit: number;
  spamBurstMinutes: number;
  /** The version of the team's spam lists (lib/spam/team-spam-lists.ts). */
  spamListsVersion: number;
  /** Whether the team's suppression list ever had an entry: false, the intake skips its lookup (lib/consent/intake-consent.ts). */
  suppressionListUsed: boolean;
};

/** The intake team's columns, from the Team row aliased `t`, for the channels' raw lookups (read back by intakeTeamOf). */
export const INTAKE_TEAM_SQL = `t."id" AS "teamId", t."slug" AS "teamSlug", t."defaultPhoneCountry", t."repeatWindowDays", t."spamThreshold",
  t."spamBusinessOnly", t."spamBurstLimit", t."spamBurstMinutes", t."spamListsVersion", t."suppressionListUsed"`;

/** The intake team's columns for the channels' Prisma lookups. */
export const INTAKE_TEAM_SELECT = {
  id: true,
  slug: true,
  defaultPhoneCountry: true,
  repeatWindowDays: true,
  spamThreshold: true,
  spamBusinessOnly: true,
  spamBurstLimit: true,
  spamBurstMinutes: true,
  spamListsVersion: true,
  suppressionListUsed: true,
} as const;

/** The columns INTAKE_TEAM_SQL reads, as a driver returns them. */
export type IntakeTeamRow = {
  teamId: string;
  teamSlug: string;
  defaultPhoneCountry: string | null;
  repeatWindowDays: number | bigint;
  spamThreshold: number | bigint;
  spamBusinessOnly: unknown;
  spamBurstLimit: number | bigint;
  spamBurstMinutes: number | bigint;
  spamListsVersion: number | bigint;
  suppressionListUsed: unknown;
};

/** The team of a row read with INTAKE_TEAM_SQL. */
export function intakeTeamOf(row: IntakeTeamRow): IntakeTeam {
  return {
    id: row.teamId,
    slug: row.teamSlug,
    defaultPhoneCountry: row.defaultPhoneCountry,
    repeatWindowDays: Number(row.repeatWindowDays),
    spamThreshold: Number(row.spamThreshold),
    spamBusinessOnly: readDriverBoolean(row.spamBusinessOnly),
    spamBurstLimit: Number(row.spamBurstLimit),
    spamBurstMinutes: Number(row.spamBurstMinutes),
    spamListsVersion: Number(row.spamListsVersion),
    suppressionListUsed: readDriverBoolean(row.suppressionListUsed),
  };
}
