import type { AnswerValue } from "./answers";
import type { BuilderId } from "./builders";

// The consent a builder's answer gives (docs/consent.md "Connections"): the answer the team
// mapped to "consent" on the connection's page, read by the shapes each builder sends for a
// ticked box (lib/connections/fixtures). Given: true, the number 1, a text that says yes
// ("true", "yes", "1", "on", "checked", "accepted", "agreed", "y"; any case, spaces around),
// or a list of the ticked options (a one-option checkbox question ticked) with at least one
// option and none of them a "no". A builder that sends a ticked box as the text of its label
// (WPForms' GDPR Agreement and a one-choice Checkboxes, Gravity Forms' checkbox choice input,
// Elementor's checkbox without Advanced Data) also gives consent by any other text that is
// not a "no". Anything else is not given: false, 0, "", "no", an empty list, a question left
// unanswered (the builder leaves it out), a text of another builder.

const YES = new Set(["true", "yes", "1", "on", "checked", "accepted", "agreed", "y"]);
const NO = new Set(["", "false", "no", "0", "off", "unchecked", "n"]);

/** Builders whose ticked box may arrive as its label's text (the rule above). */
export const LABEL_MEANS_TICKED: ReadonlySet<BuilderId> = new Set<BuilderId>(["wpforms", "gravityforms", "elementor"]);

const word = (text: string) => text.trim().toLowerCase();

/** Whether the mapped consent answer of this builder gives consent. */
export function consentAnswerOf(builder: BuilderId, value: AnswerValue): "given" | "not_given" {
  if (value === true || value === 1) return "given";
  if (typeof value === "string") {
    const said = word(value);
    if (YES.has(said)) return "given";
    return LABEL_MEANS_TICKED.has(builder) && !NO.has(said) ? "given" : "not_given";
  }
  if (Array.isArray(value)) return value.length > 0 && value.every((item) => !NO.has(word(item))) ? "given" : "not_given";
  return "not_given";
}

/**
 * The person's address and browser as the builder gives them, for the consent evidence; null
 * where it gives none (most builders: the delivery comes from the builder's server, whose
 * address is not the person's and is never recorded as theirs). Jotform's `ip`; Gravity
 * Forms' entry `ip` and `user_agent`; Elementor's Remote IP and User Agent rows with Advanced
 * Data on (without it they are answers a question could also be titled, never read as these).
 */
export function builderPerson(builder: BuilderId, meta: Readonly<Record<string, string>>): { ip: string | null; userAgent: string | null } {
  const at = (name: string) => (Object.hasOwn(meta, name) ? meta[name]!.slice(0, 2_000) : null);
  switch (builder) {
    case "jotform":
      return { ip: at("ip"), userAgent: null };
    case "gravityforms":
      return { ip: at("ip"), userAgent: at("user_agent") };
    case "elementor":
      return { ip: at("remote_ip"), userAgent: at("user_agent") };
    default:
      return { ip: null, userAgent: null };
  }
}
