export type SplitName = { firstName: string; lastName: string | null; fullName: string };

/** Spec 2.1: the first word becomes the first name, the remainder the last name. */
export function splitName(name: string): SplitName {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const [firstName = "", ...rest] = words;
  return { firstName, lastName: rest.length ? rest.join(" ") : null, fullName: words.join(" ") };
}
