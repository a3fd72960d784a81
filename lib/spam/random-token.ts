// Is a name or organization a random token (`bXgjKwqZrTplM`)? A Latin-script word is
// judged by the character model trained on faker's multilingual name lists
// (scripts/train-name-model.ts, name-model.json) and by two rules that real names keep:
// case changes inside a word, and digits in a person's name. Words in other scripts are
// never judged: the model has too little of them to call anything random (docs/spam.md).
import { buildCharModel, type NameModelFile } from "./char-model";
import modelFile from "./name-model.json";
import { nameWords, type NameWord } from "./name-words";

export type RandomTokenRule = "model" | "mixed_case" | "digits";

const file = modelFile as unknown as NameModelFile;
// Built once per process, on first import.
const model = buildCharModel(file.counts);

const UPPER = /\p{Lu}/u;
const LOWER = /\p{Ll}/u;
/** All-capital words this short are acronyms (KPMG, HSBC), not tokens. */
const ACRONYM_MAX = 6;
/**
 * Case irregularities in one word: each lower-to-upper change (McDonald, DeShawn and
 * iPhone have one, DeLaCruz two), and each run of capitals that goes on in lower case
 * ("CQIObcogrh"), which a person's name never shows and a company's rarely (JPMorgan).
 */
const IRREGULAR = { random: 3, withRare: 2, rare: 2, minLength: 6, capitalRunPerson: 2, capitalRunOrganization: 1 } as const;

// Most names are written Capitalized or in lower case: nothing to count.
const PLAIN_CASE = /^\p{Lu}?[\p{Ll}\p{M}\p{N}]+$/u;

function caseIrregularity(raw: string, person: boolean): { irregularity: number; hasLower: boolean } {
  if (PLAIN_CASE.test(raw)) return { irregularity: 0, hasLower: true };
  let irregularity = 0;
  let previousLower = false;
  let capitalRun = 0;
  let hasLower = false;
  for (const char of raw) {
    const upper = UPPER.test(char);
    const lower = LOWER.test(char);
    if (upper && previousLower) irregularity++;
    if (lower && capitalRun >= 2) irregularity += person ? IRREGULAR.capitalRunPerson : IRREGULAR.capitalRunOrganization;
    capitalRun = upper ? capitalRun + 1 : 0;
    previousLower = lower;
    hasLower ||= lower;
  }
  return { irregularity, hasLower };
}

function judgeWord(word: NameWord, person: boolean): RandomTokenRule | null {
  const letters = word.latin;
  if (letters === null) return null;
  if (person && word.hasDigit && letters.length > 0) return "digits";
  const { irregularity, hasLower } = caseIrregularity(word.raw, person);
  if (!hasLower && letters.length <= ACRONYM_MAX) return null;
  if (letters.length >= IRREGULAR.minLength) {
    if (irregularity >= IRREGULAR.random) return "mixed_case";
    if (irregularity >= IRREGULAR.withRare && model.score(letters).rare >= IRREGULAR.rare) return "mixed_case";
  }
  if (letters.length < file.minLength) return null;
  const { rare, meanLogProb } = model.score(letters);
  if (rare >= file.rareLimit || meanLogProb < file.meanLimit) return "model";
  return null;
}

/**
 * The first rule a word of the value breaks, or null when it reads as a name.
 * `person`: a person's name (digits count against it); else an organization ("3M" is fine).
 */
export function randomTokenRule(value: string, person: boolean): RandomTokenRule | null {
  for (const word of nameWords(value)) {
    const rule = judgeWord(word, person);
    if (rule) return rule;
  }
  return null;
}
