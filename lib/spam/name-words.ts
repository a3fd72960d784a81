// Splits a name-like field into words and reduces Latin-script words to the 26 letters the
// character model knows. Shared by the runtime (random-token.ts) and the training script,
// so both see exactly the same letters.

/** A word as typed, and its letters folded to a–z when the word is wholly Latin script. */
export type NameWord = { raw: string; latin: string | null; hasDigit: boolean };

const WORD_SPLIT = /[^\p{L}\p{M}\p{N}]+/u;
const NON_LATIN_LETTER = /(?!\p{Script=Latin})\p{L}/u;
const COMBINING_MARKS = /\p{M}+/gu;
const DIGIT = /\p{N}/u;

// Latin letters that NFKD does not take apart into a base letter and a mark.
const SPECIAL_LATIN: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  ı: "i",
  ŋ: "n",
  ħ: "h",
  ƒ: "f",
  ſ: "s",
};

/** Folds a Latin-script word to a–z ("Brzęczyszczykiewicz" → "brzeczyszczykiewicz"). */
export function foldLatin(word: string): string {
  const lower = word.normalize("NFKD").replace(COMBINING_MARKS, "").toLowerCase();
  let out = "";
  for (const char of lower) {
    if (char >= "a" && char <= "z") out += char;
    else out += SPECIAL_LATIN[char] ?? "";
  }
  return out;
}

export function nameWords(value: string): NameWord[] {
  const words: NameWord[] = [];
  for (const raw of value.split(WORD_SPLIT)) {
    if (!raw) continue;
    const latin = NON_LATIN_LETTER.test(raw) ? null : foldLatin(raw);
    words.push({ raw, latin, hasDigit: DIGIT.test(raw) });
  }
  return words;
}
