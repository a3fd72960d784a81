// Trains the character model of lib/spam/random-token.ts from the name lists of every
// @faker-js/faker locale and writes lib/spam/name-model.json (trigram counts, the
// calibrated limits and the held-out evaluation that docs/spam.md reports).
// Run: npx tsx scripts/train-name-model.ts
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildCharModel, countTrigrams, type CharModel, type NameModelFile, type TrigramCounts } from "../lib/spam/char-model";
import { nameWords } from "../lib/spam/name-words";
import { fakerNames, type LocaleNames } from "./faker-names";
import { seededRandom } from "./seeded-random";

const ROOT = path.resolve(import.meta.dirname, "..");
const OUT = path.join(ROOT, "lib/spam/name-model.json");
const fakerVersion = (JSON.parse(readFileSync(path.join(ROOT, "node_modules/@faker-js/faker/package.json"), "utf8")) as { version: string })
  .version;
/** Shorter words are never judged by the model alone: too few letters to tell a name from noise. */
const MIN_LENGTH = 8;
/** Margins beyond the worst training word, so names of languages faker lacks still pass. */
const RARE_MARGIN = 2;
const MEAN_MARGIN_BITS = 1.25;

function latinWords(parts: LocaleNames[]): string[] {
  const words = new Set<string>();
  for (const { first, last } of parts) {
    for (const name of [...first, ...last]) for (const word of nameWords(name)) if (word.latin) words.add(word.latin);
  }
  return [...words].sort();
}

const rareCount = (model: CharModel, word: string) => model.score(word).rare;

function randomTokens(count: number): string[] {
  const random = seededRandom(20260942);
  const letters = "abcdefghijklmnopqrstuvwxyz";
  return Array.from({ length: count }, () => {
    const length = MIN_LENGTH + Math.floor(random() * 9);
    return Array.from({ length }, () => letters[Math.floor(random() * letters.length)]).join("");
  });
}

const { train, heldOut } = fakerNames();
const trainWords = latinWords(train);
const trainSet = new Set(trainWords);
// A held-out name may share a word with a training name ("Anna Maria" / "Anna"): only
// words the model never saw measure it.
const heldOutWords = latinWords(heldOut).filter((word) => !trainSet.has(word));

const counts: TrigramCounts = {};
for (const word of trainWords) countTrigrams(counts, word);
const model = buildCharModel(counts);

const judged = (words: string[]) => words.filter((word) => word.length >= MIN_LENGTH);
const trainJudged = judged(trainWords);
const rareLimit = Math.max(...trainJudged.map((word) => rareCount(model, word))) + RARE_MARGIN;
const meanLimit = Math.min(...trainJudged.map((word) => model.score(word).meanLogProb)) - MEAN_MARGIN_BITS;
const isRandom = (word: string) =>
  word.length >= MIN_LENGTH && (rareCount(model, word) >= rareLimit || model.score(word).meanLogProb < meanLimit);

const heldOutJudged = judged(heldOutWords);
const tokens = randomTokens(5000);
const file: NameModelFile = {
  about: `Character trigram counts of the Latin-script first, middle and last names of @faker-js/faker ${fakerVersion} (all locales, one name in five held out); written by scripts/train-name-model.ts`,
  minLength: MIN_LENGTH,
  rareLimit,
  meanLimit: Math.round(meanLimit * 100) / 100,
  evaluation: {
    locales: train.length,
    trainingWords: trainWords.length,
    heldOutWords: heldOutWords.length,
    heldOutJudged: heldOutJudged.length,
    heldOutFalsePositives: heldOutJudged.filter(isRandom).length,
    randomTokens: tokens.length,
    randomTokensCaught: tokens.filter(isRandom).length,
  },
  counts: Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1))),
};
writeFileSync(OUT, `${JSON.stringify(file)}\n`);
console.log(JSON.stringify({ ...file, counts: `${Object.keys(counts).length} trigrams` }, null, 2));
