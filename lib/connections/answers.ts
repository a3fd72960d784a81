// What every form builder's body becomes before it is mapped to a lead (docs/connections.md):
// labelled answers, the builder's own submission id (for idempotency) and a little
// metadata kept apart from the answers. Each builder has one adapter (tally.ts,
// generic.ts, …) that turns its body into a Delivery or refuses it with UnknownPayload.

/**
 * What the builder says an answer is, where it says it. `email`, `phone`, `url`, `name`,
 * `first_name` and `last_name` decide the lead field before the label does
 * (map-answers.ts); `meta` is a row the builder may add among the answers without saying
 * which it is (Elementor's "Page URL", "User Agent" … rows, or a question of that title):
 * ignored unless the team maps it, never lost from sight; the others are descriptive, for
 * the connection's page.
 */
export type AnswerType =
  | "email"
  | "phone"
  | "name"
  | "first_name"
  | "last_name"
  | "url"
  | "text"
  | "number"
  | "date"
  | "choice"
  | "hidden"
  | "file"
  | "payment"
  | "meta";

/** A list is a question with several values (checkboxes, multi-select, ranking, files), in the order sent. */
export type AnswerValue = string | number | boolean | string[];

export type Answer = {
  /** The builder's stable id of the question (Tally `key`, a JSON path for Generic): overrides name it. */
  key: string;
  /** The question as the respondent saw it (a JSON path for Generic): the extra field's name. */
  label: string;
  type?: AnswerType;
  value: AnswerValue;
};

export type Delivery = {
  /** The builder's id of the submission, the same on every retry; null when the body has none. */
  submissionId: string | null;
  answers: Answer[];
  /**
   * The builder's own ids and times (form id, event id, …), never an answer: kept apart,
   * not mapped to the lead and (yet) not stored. Anything a respondent could have typed is
   * an answer instead (typed `meta` when it may be the builder's metadata).
   */
  meta: Record<string, string>;
};

/**
 * A body the adapter does not know how to read: not the documented shape of its builder.
 * Refused rather than guessed at; the endpoint keeps it in the connection's log. The
 * message says what was expected, never the body's content.
 */
export class UnknownPayload extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnknownPayload";
  }
}

/**
 * Answers a connection reads of one delivery (issue 40, finding 1): no form asks more
 * questions, and each is an entry the connection's log keeps. More is refused, unread.
 */
export const MAX_ANSWERS_PER_DELIVERY = 200;

/** A delivery with more than MAX_ANSWERS_PER_DELIVERY answers; an adapter may stop reading at the first too many. */
export class TooManyAnswers extends Error {
  constructor() {
    super(`More than ${MAX_ANSWERS_PER_DELIVERY} answers`);
    this.name = "TooManyAnswers";
  }
}

/** Adds an answer to `answers`; throws TooManyAnswers past the limit, so a huge body is not read to its end. */
export function pushAnswer(answers: Answer[], answer: Answer): void {
  if (answers.length >= MAX_ANSWERS_PER_DELIVERY) throw new TooManyAnswers();
  answers.push(answer);
}

/** A plain JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A plain JSON value an answer may hold as it is: text, a number, true or false. */
export const isScalar = (value: unknown): value is string | number | boolean =>
  typeof value === "string" || typeof value === "number" || typeof value === "boolean";

/** Text that is not empty; null for anything else. */
export const nonEmpty = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);

/** A value named in a refusal's message: the start of a text, else its type; never more. */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.slice(0, 40));
  return value === undefined ? "none" : typeof value;
}

/**
 * A flat field's value as an answer (Webflow's payload.data, Framer's body): text, true/false,
 * a finite number, or a list of plain values kept as texts. null: no answer (null, "", a list
 * of nothing but ""); undefined: a shape no flat form sends (an object, a list of objects).
 */
export function flatAnswerValue(value: unknown): AnswerValue | null | undefined {
  if (value === null || value === "") return null;
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (Array.isArray(value) && value.every(isScalar)) {
    const kept = value.filter((item) => item !== "").map(String);
    return kept.length ? kept : null;
  }
  return undefined;
}
