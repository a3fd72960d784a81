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

export type CharModel = {
  /** Mean log2 probability per predicted character (the end mark included); higher is more name-like. */
  meanLogProb(letters: string): number;
  /** The log2 probability of each predicted character (the end mark included). */
  logProbs(letters: string): number[];
};

export function buildCharModel(counts: TrigramCounts): CharModel {
  const tri = new Map<string, number>();
  const triContext = new Map<string, number>();
  const bi = new Map<string, number>();
  const biContext = new Map<string, number>();
  const uni = new Map<string, number>();
  let total = 0;
  for (const [gram, count] of Object.entries(counts)) {
    if (gram.length !== 3 || !(count > 0)) continue;
    tri.set(gram, count);
    triContext.set(gram.slice(0, 2), (triContext.get(gram.slice(0, 2)) ?? 0) + count);
    bi.set(gram.slice(1), (bi.get(gram.slice(1)) ?? 0) + count);
    biContext.set(gram[1]!, (biContext.get(gram[1]!) ?? 0) + count);
    uni.set(gram[2]!, (uni.get(gram[2]!) ?? 0) + count);
    total += count;
  }

  const probability = (a: string, b: string, c: string): number => {
    const pUni = ((uni.get(c) ?? 0) + 1) / (total + ALPHABET_SIZE);
    const biTotal = biContext.get(b) ?? 0;
    const pBi = biTotal ? (bi.get(b + c) ?? 0) / biTotal : pUni;
    const triTotal = triContext.get(a + b) ?? 0;
    const pTri = triTotal ? (tri.get(a + b + c) ?? 0) / triTotal : pBi;
    return WEIGHTS.tri * pTri + WEIGHTS.bi * pBi + WEIGHTS.uni * pUni;
  };

  const logProbs = (letters: string): number[] => {
    const out: number[] = [];
    let a = START;
    let b = START;
    for (const c of letters + END) {
      out.push(Math.log2(probability(a, b, c)));
      a = b;
      b = c;
    }
    return out;
  };
  return {
    logProbs,
    meanLogProb: (letters) => logProbs(letters).reduce((sum, p) => sum + p, 0) / (letters.length + 1),
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
