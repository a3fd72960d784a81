// The measured corpus (scripts/build-spam-corpus.ts) and its confusion matrix, for
// spam-corpus.test.ts and scripts/bench-spam.ts.
import realEntries from "./corpus/real.json";
import spamEntries from "./corpus/spam.json";
import { DEFAULT_SPAM_SETTINGS, spamVerdict, type SpamContext, type SpamSettings, type SpamSubmission } from "./spam-verdict";

export type CorpusEntry = { shape: string; submission: SpamSubmission; context?: SpamContext };

export const REAL_LEADS = realEntries as CorpusEntry[];
export const SPAM_SUBMISSIONS = spamEntries as CorpusEntry[];

export type CorpusScore = {
  real: { total: number; quarantined: number; flaggedBy: Record<string, number> };
  spam: { total: number; quarantined: number; caughtBy: Record<string, number>; missedShapes: Record<string, number> };
};

const increment = (counts: Record<string, number>, key: string) => (counts[key] = (counts[key] ?? 0) + 1);

/** Quarantine counts, and per reason code how many entries it gave points to. */
export function scoreCorpus(settings: SpamSettings = DEFAULT_SPAM_SETTINGS): CorpusScore {
  const result: CorpusScore = {
    real: { total: REAL_LEADS.length, quarantined: 0, flaggedBy: {} },
    spam: { total: SPAM_SUBMISSIONS.length, quarantined: 0, caughtBy: {}, missedShapes: {} },
  };
  for (const { submission, context } of REAL_LEADS) {
    const verdict = spamVerdict(submission, settings, context);
    if (verdict.quarantined) result.real.quarantined++;
    for (const code of new Set(verdict.reasons.map((r) => r.code))) increment(result.real.flaggedBy, code);
  }
  for (const { shape, submission, context } of SPAM_SUBMISSIONS) {
    const verdict = spamVerdict(submission, settings, context);
    if (verdict.quarantined) result.spam.quarantined++;
    else increment(result.spam.missedShapes, shape);
    for (const code of new Set(verdict.reasons.map((r) => r.code))) increment(result.spam.caughtBy, code);
  }
  return result;
}

export function confusionMatrix({ real, spam }: CorpusScore): string {
  return [
    "|                 | quarantined | passed |",
    "| --------------- | ----------- | ------ |",
    `| real (${real.total})     | ${real.quarantined} | ${real.total - real.quarantined} |`,
    `| spam (${spam.total})      | ${spam.quarantined} | ${spam.total - spam.quarantined} |`,
    "",
    `real leads given points, by reason: ${JSON.stringify(real.flaggedBy)}`,
    `spam given points, by reason: ${JSON.stringify(spam.caughtBy)}`,
    `spam passed, by shape: ${JSON.stringify(spam.missedShapes)}`,
  ].join("\n");
}
