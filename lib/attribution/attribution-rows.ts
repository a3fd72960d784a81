import { leadAttribution, type AttributedFields, type Touch } from "./lead-attribution";

// The lead page's "Source and attribution" rows of a lead's touches (docs/attribution.md
// "On the lead's page"). Every value is plain text: a landing page or referrer is shown, never
// linked (it may be any text a sender typed).

export type AttributionRow = [label: string, value: string | null];

const clickIds = (touch: Touch) => (touch.clickIds.length ? touch.clickIds.map(({ name, value }) => `${name}: ${value}`).join(", ") : null);

/** "google / cpc · spring": a touch's source, medium and campaign; null for a direct visit with no campaign. */
export function touchSummary(touch: Touch): string | null {
  const origin = touch.source || touch.medium ? `${touch.source ?? "(not set)"} / ${touch.medium ?? "(not set)"}` : null;
  const parts = [origin, touch.campaign].filter(Boolean);
  return parts.length ? parts.join(" · ") : null;
}

/** The rows of the lead's last touch (the channel group stored on its row), then of its first touch when it carries one. */
export function attributionRows(lead: AttributedFields & { channelGroup: string; firstChannelGroup: string }): AttributionRow[] {
  const { first, last, firstKnown } = leadAttribution(lead);
  const rows: AttributionRow[] = [
    ["Channel group", lead.channelGroup],
    ["Landing page", last.landingPage],
    ["Referrer", last.referrer],
    ["Click ids", clickIds(last)],
    ["Last touch at", last.at],
  ];
  if (!firstKnown) return [...rows, ["First touch", "The same as the last (no first_* fields were sent)"]];
  return [
    ...rows,
    ["First touch", [lead.firstChannelGroup, touchSummary(first)].filter(Boolean).join(": ")],
    ["First landing page", first.landingPage],
    ["First referrer", first.referrer],
    ["First click ids", clickIds(first)],
    ["First seen at", first.at],
  ];
}
