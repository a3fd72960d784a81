// Structured logs: one JSON object per line, on stdout (info) or stderr (warn, error).
// Every line passes through `redact`, so a secret that reaches a log call by mistake
// (a pasted secret in X-API-Key, a header map, an error message) is still not written.

export type LogLevel = "info" | "warn" | "error";
export type LogFields = Record<string, unknown>;

const SECRET_TEXT = /team_[0-9A-Za-z]{8,}/g;
const REDACTED = "[REDACTED]";
// Field names whose values are never logged, whatever they hold: the secret header,
// secrets, passwords, cookies and other credentials.
const SENSITIVE_NAME = /secret|passw|pwd|cookie|authori[sz]ation|credential|token|session/i;
const MAX_DEPTH = 6;
const MAX_STRING = 2_000;

function redactString(text: string): string {
  const clipped = text.length > MAX_STRING ? `${text.slice(0, MAX_STRING)}…` : text;
  return clipped.replace(SECRET_TEXT, `team_${REDACTED}`);
}

/** A copy of `value` that is safe to log: sensitive fields blanked, secret-looking text masked. */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return redactString(value);
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return "[…]";
  if (value instanceof Error) return { name: value.name };
  if (value instanceof Headers) return redact(Object.fromEntries(value.entries()), depth);
  if (Array.isArray(value)) return value.slice(0, 50).map((item) => redact(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) {
    out[redactString(name)] = SENSITIVE_NAME.test(name) ? REDACTED : redact(item, depth + 1);
  }
  return out;
}

/** Writes one log line. `event` names what happened (e.g. "auth.failed"); fields add context. */
export function log(level: LogLevel, event: string, fields: LogFields = {}): void {
  const entry = { time: new Date().toISOString(), level, event, ...(redact(fields) as LogFields) };
  // The serialised line is checked once more: JSON escaping cannot create a secret, but a
  // future field added without thought should still not leak one.
  const line = JSON.stringify(entry).replace(SECRET_TEXT, `team_${REDACTED}`);
  (level === "info" ? process.stdout : process.stderr).write(`${line}\n`);
}
