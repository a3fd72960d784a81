// The names of the fields a lead's attribution is derived from (docs/attribution.md "The
// fields"): the spec's utm_* fields and the extra fields the attribution script adds. Kept
// apart from the rules (no source list loaded) for the request parser, which reads the names.

/** The ad platforms' click ids, in the order they are looked at (Google's first). */
export const CLICK_IDS = ["gclid", "gbraid", "wbraid", "msclkid", "fbclid", "ttclid", "li_fat_id"] as const;
export type ClickId = (typeof CLICK_IDS)[number];

export const UTM = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"] as const;
/** A touch's fields: the last touch's names; a first touch's are these prefixed first_. */
export const TOUCH_FIELDS = [...UTM, "landing_page", "referrer", ...CLICK_IDS] as const;

/** Every extra field name the derivation reads: a last touch's, a first touch's, and the two times. */
export const ATTRIBUTION_FIELD_NAMES: readonly string[] = [
  ...TOUCH_FIELDS.filter((name) => !name.startsWith("utm_")),
  "last_seen_at",
  ...TOUCH_FIELDS.map((name) => `first_${name}`),
  "first_seen_at",
];
