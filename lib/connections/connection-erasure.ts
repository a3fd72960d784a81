import type { Tx } from "../db/client";
import { fieldsOf, parseJson, type ReadBody } from "../http/read-body";
import { cellMatcher, type CellMatcher, type PersonContacts } from "../leads/person-match";
import { keptBody } from "./builders";

// A person's erasure (lib/leads/erase-person.ts) in the connections' logs: a delivery kept
// whole (it needs mapping, or was refused once its signature held) whose body names one of
// the person's emails or numbers is deleted with the rest, in the erasure's transaction. A
// delivery that made its lead keeps no body: the lead's own erasure covers it.
//
// A body names the person when one of its values does, read as the intake read it: JSON
// with its escapes undone ("zo\u00eb@…", how PHP and Python write non-ASCII), a form body
// decoded pair by pair (a stray "%" stays a "%", as the intake's parser leaves it),
// multipart parts. The text as sent is matched too, and is all there is of a body the
// intake could not read (a refusal), with what a lenient reading of it gives.

const IDS_PER_STATEMENT = 500;

/** A JSON answer holding JSON as text (Jotform's rawRequest) is read too, this deep at most. */
const MAX_EMBEDDED_JSON = 4;

/** Every key, string and number of a JSON value (walked without recursion: a body may nest deeply). */
function jsonTexts(root: unknown, texts: string[], embedded = 0): void {
  const stack: unknown[] = [root];
  while (stack.length) {
    const value = stack.pop();
    if (typeof value === "string") {
      texts.push(value);
      if (embedded < MAX_EMBEDDED_JSON) embeddedJson(value, texts, embedded + 1);
    } else if (typeof value === "number") {
      texts.push(String(value));
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) {
        texts.push(key);
        stack.push(item);
      }
    }
  }
}

function embeddedJson(text: string, texts: string[], embedded: number): void {
  const start = text.trimStart()[0];
  if (start !== "{" && start !== "[") return;
  try {
    jsonTexts(JSON.parse(text), texts, embedded);
  } catch {
    // Text that only looks like JSON: its value as a whole was read already.
  }
}

/** The body's keys and values as the intake reads them; null when the intake could not read it. */
async function decodedTexts(body: ReadBody): Promise<string[] | null> {
  const texts: string[] = [];
  try {
    if (body.mediaType === "application/json") {
      jsonTexts(parseJson(body.bytes), texts);
      return texts;
    }
    for (const [name, value] of await fieldsOf(body)) {
      texts.push(name);
      // A file part's bytes are in the text as sent (files are never answers).
      if (typeof value === "string") jsonTexts(value, texts);
    }
    return texts;
  } catch {
    return null;
  }
}

/**
 * What can still be read of a body the intake refused, whatever its type said: its pairs
 * decoded as a form's, leniently (a malformed escape becomes U+FFFD, the rest still reads),
 * and the text with JSON's \uXXXX escapes undone.
 */
function lenientTexts(payload: string): string[] {
  const unescaped = payload.replace(/\\u([0-9a-fA-F]{4})/g, (_escape, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return [...[...new URLSearchParams(payload)].flat(), unescaped];
}

/** Whether a kept body (its payload and Content-Type as logged) names the person. */
export async function keptBodyNames(row: { payload: string; contentType: string | null }, matcher: CellMatcher): Promise<boolean> {
  if (matcher.matches(row.payload)) return true;
  const body = keptBody(row.payload, row.contentType);
  const texts = (await decodedTexts(body)) ?? lenientTexts(row.payload);
  return texts.some((text) => matcher.matches(text));
}

/** The ids of the team's kept deliveries whose body names the person. */
export async function findKeptDeliveries(client: Tx, options: { teamId: string; contacts: PersonContacts }): Promise<string[]> {
  const { contacts } = options;
  if (!contacts.emails.length && !contacts.phones.length) return [];
  const matcher = cellMatcher(contacts);
  // Kept bodies are few (those waiting for a mapping, refusals after a valid signature): read them all.
  const kept = await client.connectionDelivery.findMany({
    where: { teamId: options.teamId, payload: { not: null } },
    select: { id: true, payload: true, contentType: true },
  });
  const ids: string[] = [];
  for (const row of kept) if (await keptBodyNames({ payload: row.payload!, contentType: row.contentType }, matcher)) ids.push(row.id);
  return ids;
}

/** Deletes the team's kept deliveries naming the person; answers how many. */
export async function eraseKeptDeliveries(tx: Tx, options: { teamId: string; contacts: PersonContacts }): Promise<number> {
  const ids = await findKeptDeliveries(tx, options);
  let erased = 0;
  for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
    erased += (await tx.connectionDelivery.deleteMany({ where: { id: { in: ids.slice(i, i + IDS_PER_STATEMENT) } } })).count;
  }
  return erased;
}
