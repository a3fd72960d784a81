// A note's text (docs/leads.md "Timeline and notes"), apart from the use cases so the page's
// form can name the limit without the database: plain text, not blank, at most MAX_NOTE_LENGTH
// characters (UTF-16 code units, as a textarea's maxLength counts them).

export const MAX_NOTE_LENGTH = 10_000;

/**
 * The text of a note as stored: line ends as "\n", no NUL (PostgreSQL's text refuses it), no
 * blank lines or spaces around it; or why it is refused.
 */
export function checkNoteBody(body: unknown): { ok: true; body: string } | { ok: false; error: string } {
  if (typeof body !== "string") return { ok: false, error: "Write a note." };
  const text = body.replace(/\r\n?/g, "\n").replaceAll("\u0000", "").trim();
  if (!text) return { ok: false, error: "Write a note." };
  if (text.length > MAX_NOTE_LENGTH) {
    const count = (n: number) => n.toLocaleString("en-US");
    return { ok: false, error: `A note holds at most ${count(MAX_NOTE_LENGTH)} characters (this one has ${count(text.length)}).` };
  }
  return { ok: true, body: text };
}
