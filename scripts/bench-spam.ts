// Micro-benchmark of spamVerdict on the measured corpus: µs per call, after a warm-up
// (the lists and the name model load once per process, on import).
// Run: npx tsx scripts/bench-spam.ts
import { REAL_LEADS, SPAM_SUBMISSIONS } from "../lib/spam/spam-corpus.fixtures";
import { DEFAULT_SPAM_SETTINGS, EMPTY_SPAM_LISTS, spamVerdict, type SpamSettings } from "../lib/spam/spam-verdict";

const ROUNDS = 5;
const entries = [...REAL_LEADS, ...SPAM_SUBMISSIONS];
const teamSettings = (): SpamSettings => ({
  threshold: 10,
  businessEmailOnly: true,
  lists: {
    ...EMPTY_SPAM_LISTS,
    blockedWords: ["backlinks", "guest post", "crypto", "casino", "比特币"],
    blockedEmailDomains: ["spam.example"],
    blockedIpRanges: ["203.0.113.0/24", "2001:db8::/32"],
  },
});

function bench(title: string, settingsFor: () => SpamSettings): void {
  for (const { submission, context } of entries) spamVerdict(submission, settingsFor(), context);
  const perCall: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = process.hrtime.bigint();
    for (const { submission, context } of entries) spamVerdict(submission, settingsFor(), context);
    perCall.push(Number(process.hrtime.bigint() - started) / 1000 / entries.length);
  }
  perCall.sort((a, b) => a - b);
  console.log(
    `${title}: ${perCall[Math.floor(ROUNDS / 2)]!.toFixed(1)} µs per call (median of ${ROUNDS} rounds of ${entries.length} calls; best ${perCall[0]!.toFixed(1)})`,
  );
}

bench("default settings", () => DEFAULT_SPAM_SETTINGS);
// A team's settings as the caller reads them per request: a new object each call.
bench("team lists, read per request", teamSettings);
