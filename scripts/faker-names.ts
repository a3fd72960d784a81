// The names of every @faker-js/faker locale, split once and for all into a training part
// (the character model of lib/spam/random-token.ts learns from it) and a held-out part
// (the model's evaluation and the real leads of the spam corpus). The split is by a hash
// of the name, so a name is in one part in every locale and every run.
import { allLocales } from "@faker-js/faker";

export type LocaleNames = { locale: string; first: string[]; last: string[] };
export type NameSplit = { train: LocaleNames[]; heldOut: LocaleNames[] };

/** One name in five is held out. */
const HELD_OUT_EVERY = 5;

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export const isHeldOut = (name: string): boolean => fnv1a(name.normalize("NFC")) % HELD_OUT_EVERY === 0;

/** Every string in a locale entry: a list, or an object of lists (generic, female, male). */
function strings(entry: unknown): string[] {
  if (typeof entry === "string") return [entry];
  if (Array.isArray(entry)) return entry.flatMap(strings);
  if (entry && typeof entry === "object") return Object.values(entry).flatMap(strings);
  return [];
}

export function fakerNames(): NameSplit {
  const train: LocaleNames[] = [];
  const heldOut: LocaleNames[] = [];
  for (const [locale, definition] of Object.entries(allLocales)) {
    const person = (definition as { person?: Record<string, unknown> }).person;
    if (!person) continue;
    const first = [...new Set([...strings(person.first_name), ...strings(person.middle_name)])].sort();
    const last = [...new Set(strings(person.last_name))].sort();
    if (!first.length && !last.length) continue;
    train.push({ locale, first: first.filter((n) => !isHeldOut(n)), last: last.filter((n) => !isHeldOut(n)) });
    heldOut.push({ locale, first: first.filter(isHeldOut), last: last.filter(isHeldOut) });
  }
  return { train, heldOut };
}
