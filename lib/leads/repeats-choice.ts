import { parseRepeats, type Repeats } from "./repeats";

// A channel's repeat setting as a page or a forged call sends it: one of the two, or refused
// with words a person can act on (never a 500).

export const REPEATS_REFUSED = "Choose what a repeat submission does: add it to the person's lead, or create a new lead.";

/** The setting chosen, or the refusal's message. */
export function parseRepeatsChoice(value: unknown): { repeats: Repeats } | { problem: string } {
  const repeats = parseRepeats(value);
  return repeats ? { repeats } : { problem: REPEATS_REFUSED };
}
