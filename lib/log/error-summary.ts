// What a log line may say about an error nobody expected: its class, its code and the
// driver adapter's kind, and a one-line reason with every value taken out. Messages of
// library and driver errors can echo what was sent ("Unknown calling code: 999",
// 'invalid input syntax for type integer: "abc"', an email in a constraint detail), so
// the reason keeps the words and drops quoted text, numbers and addresses.

export type ErrorSummary = { error: string; code?: string; kind?: string; reason?: string };

const MAX_REASON = 120;

/** The first line of a message with values removed: quoted text, numbers, emails, URLs. */
export function safeReason(message: string): string | undefined {
  const line = message.split(/\r?\n/, 1)[0]!.trim();
  const reason = line
    .replace(/(["'`])(?:(?!\1).)*\1?/g, "…")
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, "<url>")
    .replace(/[^\s()<>=,;:]+@[^\s()<>=,;:]+/g, "<email>")
    // Whatever looks like a token (a long run of letters and digits) is a value too.
    .replace(/[A-Za-z0-9_-]{20,}/g, "…")
    .replace(/\d+/g, "#");
  if (!reason) return undefined;
  return reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON)}…` : reason;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value ? value : undefined;
}

type Described = {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  constructor?: { name?: unknown };
  cause?: { kind?: unknown; code?: unknown };
  meta?: { driverAdapterError?: { cause?: { kind?: unknown; code?: unknown } } };
};

/** The loggable facts of any thrown value. */
export function summariseError(thrown: unknown): ErrorSummary {
  if (thrown === null || typeof thrown !== "object") return { error: typeof thrown };
  const error = thrown as Described;
  const cause = error.meta?.driverAdapterError?.cause ?? error.cause;
  // A plain `Error` says nothing by its name; its constructor may (TypeError, RangeError…).
  const name = text(error.name) !== "Error" ? text(error.name) : text(error.constructor?.name);
  const message = text(error.message);
  const summary: ErrorSummary = { error: name ?? "Error" };
  const code = text(error.code) ?? text(cause?.code);
  const kind = text(cause?.kind);
  const reason = message && safeReason(message);
  if (code) summary.code = code;
  if (kind) summary.kind = kind;
  if (reason) summary.reason = reason;
  return summary;
}
