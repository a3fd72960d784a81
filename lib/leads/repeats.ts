// What a channel (an API key, a web form, a connection) does with a submission from a person
// who already has a lead in the team (docs/leads.md "Repeat submissions", issue 41):
// "add" joins it to that lead, "new" makes a new lead as every submission did before.

export const REPEATS = ["add", "new"] as const;
export type Repeats = (typeof REPEATS)[number];

/** API keys start at "new": the spec's create_lead creates a lead, and clients match on "Lead created successfully". */
export const API_KEY_REPEATS_DEFAULT: Repeats = "new";
/** Web forms and connections made from issue 41 on start at "add" (those made before kept "new"). */
export const CHANNEL_REPEATS_DEFAULT: Repeats = "add";

/** The setting as stored or sent; null when it is not one. */
export function parseRepeats(value: unknown): Repeats | null {
  return value === "add" || value === "new" ? value : null;
}

/** The words a page shows for each choice. */
export const REPEATS_LABELS: Record<Repeats, string> = {
  add: "Add to their lead",
  new: "Create a new lead",
};

/** The team's repeat window: days since a lead's last submission in which a repeat still joins it; 0: never. */
export const REPEAT_WINDOW_DEFAULT_DAYS = 365;
export const REPEAT_WINDOW_MAX_DAYS = 3650;
