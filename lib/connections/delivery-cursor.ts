import type { DeliveryCursor } from "./connection-delivery-store";

// A connection's log is paged by a keyset cursor (the last row's attempt time and id) that
// travels in the page's query string: `?at=<ISO time>&older=<delivery id>`. Anything a
// person could type there is read strictly; what is not a cursor is the newest page.

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DELIVERY_ID = /^dlv_[0-9a-f]{32}$/;

type QueryValue = string | string[] | undefined;

/** The cursor of `?at=…&older=…`; null (the newest page) unless both are exactly a cursor's. */
export function parseDeliveryCursor(query: { at?: QueryValue; older?: QueryValue }): DeliveryCursor | null {
  const { at, older } = query;
  if (typeof at !== "string" || typeof older !== "string" || !ISO_TIME.test(at) || !DELIVERY_ID.test(older)) return null;
  const time = new Date(at);
  // A time that does not exist (February 30th, 24:00) is parsed as another, or not at all.
  if (Number.isNaN(time.getTime()) || time.toISOString() !== at) return null;
  return { at: time, id: older };
}

/** The query string of the page that starts after `cursor`. */
export function deliveryCursorQuery(cursor: DeliveryCursor): string {
  return new URLSearchParams({ at: cursor.at.toISOString(), older: cursor.id }).toString();
}
