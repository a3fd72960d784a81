// A character trigram model over a–z with word-boundary marks, interpolated with its
// bigram and unigram estimates. Built from trigram counts alone (the bigram and unigram
// counts are their sums), so the data file holds one table. Used by the training script
// to calibrate and by random-token.ts at run time.

export type TrigramCounts = Record<string, number>;

const START = "^";
const END = "$";
// Interpolation weights: the trigram carries the evidence; the lower orders keep a
// plausible but unseen trigram (a rare consonant cluster) from scoring as impossible.
const WEIGHTS = { tri: 0.6, bi: 0.3, uni: 0.1 } as const;
const ALPHABET_SIZE = 27; // a–z and the end mark

export type WordScore = {
  /** Mean log2 probability per predicted character (the end mark included); higher is more name-like. */
  meanLogProb: number;
  /** How many characters are less probable than RARE_TRANSITION_BITS. */
  rare: number;
};

export type CharModel = { score(letters: string): WordScore };

// Symbols: the start mark 0, a–z 1–26, the end mark 27.
const SYMBOLS = 28;
const symbol = (char: string): number => (char === START ? 0 : char === END ? 27 : char.charCodeAt(0) - 96);

export function buildCharModel(counts: TrigramCounts): CharModel {
  const tri = new Float64Array(SYMBOLS ** 3);
  const triContext = new Float64Array(SYMBOLS ** 2);
  const bi = new Float64Array(SYMBOLS ** 2);
  const biContext = new Float64Array(SYMBOLS);
  const uni = new Float64Array(SYMBOLS);
  let total = 0;
  for (const [gram, count] of Object.entries(counts)) {
    if (gram.length !== 3 || !(count > 0) || !/^[\^a-z][\^a-z][a-z$]$/.test(gram)) continue;
    const [a, b, c] = [...gram].map(symbol) as [number, number, number];
    tri[(a * SYMBOLS + b) * SYMBOLS + c]! += count;
    triContext[a * SYMBOLS + b]! += count;
    bi[b * SYMBOLS + c]! += count;
    biContext[b]! += count;
    uni[c]! += count;
    total += count;
  }

  // Every log2 probability, computed once: scoring a word is then one lookup a letter.
  const logProb = new Float64Array(SYMBOLS ** 3);
  for (let a = 0; a < SYMBOLS; a++) {
    for (let b = 0; b < SYMBOLS; b++) {
      for (let c = 1; c < SYMBOLS; c++) {
        const pUni = (uni[c]! + 1) / (total + ALPHABET_SIZE);
        const pBi = biContext[b] ? bi[b * SYMBOLS + c]! / biContext[b]! : pUni;
        const triTotal = triContext[a * SYMBOLS + b]!;
        const pTri = triTotal ? tri[(a * SYMBOLS + b) * SYMBOLS + c]! / triTotal : pBi;
        logProb[(a * SYMBOLS + b) * SYMBOLS + c] = Math.log2(WEIGHTS.tri * pTri + WEIGHTS.bi * pBi + WEIGHTS.uni * pUni);
      }
    }
  }

  return {
    score(letters) {
      let a = 0;
      let b = 0;
      let sum = 0;
      let rare = 0;
      for (let i = 0; i <= letters.length; i++) {
        const code = letters.charCodeAt(i);
        const c = i === letters.length ? 27 : code >= 97 && code <= 122 ? code - 96 : 27;
        const p = logProb[(a * SYMBOLS + b) * SYMBOLS + c]!;
        sum += p;
        if (p < RARE_TRANSITION_BITS) rare++;
        a = b;
        b = c;
      }
      return { meanLogProb: sum / (letters.length + 1), rare };
    },
  };
}

/** Adds one word's trigrams (with the boundary marks) to counts. */
export function countTrigrams(counts: TrigramCounts, letters: string): void {
  const padded = `${START}${START}${letters}${END}`;
  for (let i = 0; i + 3 <= padded.length; i++) {
    const gram = padded.slice(i, i + 3);
    counts[gram] = (counts[gram] ?? 0) + 1;
  }
}

/** A character whose log2 probability is below this is a rare transition (an unseen trigram and a rare bigram). */
export const RARE_TRANSITION_BITS = -8;

/** lib/spam/name-model.json, as scripts/train-name-model.ts writes it. */
export type NameModelFile = {
  about: string;
  /** Latin words shorter than this are never judged by the model alone. */
  minLength: number;
  /** A word with this many rare transitions or more is random. */
  rareLimit: number;
  /** A word whose mean log2 probability per character is below this is random. */
  meanLimit: number;
  evaluation: {
    locales: number;
    trainingWords: number;
    heldOutWords: number;
    heldOutJudged: number;
    heldOutFalsePositives: number;
    randomTokens: number;
    randomTokensCaught: number;
  };
  counts: TrigramCounts;
};
