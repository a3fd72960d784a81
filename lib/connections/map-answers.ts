import type { RawField } from "../http/read-body";
import { LEAD_FIELD_TARGETS, recogniseHeader, type LeadFieldTarget } from "../imports/column-mapping";
import { KNOWN_FIELDS, LIMITS } from "../leads/lead-input-schema";
import type { Answer, AnswerType, AnswerValue } from "./answers";

// Labelled answers → the fields create_lead takes (lib/leads/parse-lead-input.ts), in
// this order of precedence, each lead field filled once (the first answer that claims it):
//   1. the connection's override for the answer's key (a lead field, "extra", "ignore" or
//      "consent": one answer, kept as an extra field as sent, whose value is the consent
//      evidence's answer (docs/consent.md "Connections"));
//   2. the builder's type: email → email, phone → phone (mobile_no when the label says
//      mobile), url → website, name / first_name / last_name → the name;
//   3. the label, then the last segment of the key (a JSON path, or a hidden field's
//      name), read by the CSV import's header recognition (lib/imports/column-mapping.ts);
//   4. everything else: an extra field named by the label.
// The name is either one answer (a full name) or first and last name joined; once one
// way claims it, answers for the other go to extra fields.

/**
 * Where an override sends an answer: a lead field, an extra field under its label, nowhere,
 * or "consent": an extra field under its label too (spec 2.2: as sent), from which the
 * connection's consent evidence is derived (lib/connections/consent-answer.ts).
 */
export type AnswerTarget = LeadFieldTarget | "extra" | "ignore" | "consent";
/** The connection's mapping, by answer key; it wins over everything automatic. */
export type AnswerOverrides = Readonly<Record<string, AnswerTarget>>;

export type MappedAnswer = {
  key: string;
  label: string;
  target: AnswerTarget;
  /** The lead field or extra field the answer fills; null when ignored. */
  field: string | null;
};

export type MappedDelivery = {
  /** For parseLeadInput: the lead's fields, then the extra fields in the answers' order. */
  fields: RawField[];
  /** Each answer's target, in the answers' order: what the connection's page shows. */
  answers: MappedAnswer[];
  /**
   * Why no lead can be made as mapped (no answer gives a name); null otherwise. The fields
   * are returned all the same: parseLeadInput refuses them with "Name is required".
   */
  needsMapping: string | null;
  /** The answer mapped to "consent", as sent; null when none is (or none was delivered). */
  consent: { value: AnswerValue } | null;
};

const LEAD_FIELDS: ReadonlySet<string> = new Set(LEAD_FIELD_TARGETS.map(([field]) => field));
const NAME_PARTS: ReadonlySet<AnswerTarget> = new Set(["first_name", "last_name"]);

// A Map: an answer's type is looked up, never an inherited property of an object.
const BY_TYPE = new Map<AnswerType, LeadFieldTarget>([
  ["email", "email"],
  ["phone", "phone"],
  ["url", "website"],
  ["name", "name"],
  ["first_name", "first_name"],
  ["last_name", "last_name"],
]);

export const NO_NAME = "No answer gives the lead's name: map a question to Full name, or to First name and Last name.";

export function isAnswerTarget(value: unknown): value is AnswerTarget {
  return typeof value === "string" && (LEAD_FIELDS.has(value) || value === "extra" || value === "ignore" || value === "consent");
}

export function mapAnswers(sent: readonly Answer[], overrides: AnswerOverrides = {}): MappedDelivery {
  // Keys and labels as valid Unicode: they are stored (the log's answers, an override's key),
  // and PostgreSQL's jsonb refuses a lone surrogate.
  const answers = sent.map((answer) => ({ ...answer, key: answer.key.toWellFormed(), label: answer.label.toWellFormed() }));
  const targets = chooseTargets(answers, overrides);
  const fields: RawField[] = [];
  const mapped: MappedAnswer[] = [];
  let consent: MappedDelivery["consent"] = null;
  // Extra field names are unique and never a lead field's name, which parseLeadInput would read as that field.
  const names = new UniqueNames(KNOWN_FIELDS);

  const full = targets.indexOf("name");
  const parts = (["first_name", "last_name"] as const).map((part) => targets.indexOf(part)).filter((index) => index !== -1);
  const name = full !== -1 ? text(answers[full]!.value) : parts.map((index) => text(answers[index]!.value).trim()).join(" ");
  if (full !== -1 || parts.length) fields.push(["name", name]);

  answers.forEach((answer, index) => {
    const target = targets[index]!;
    if (target === "ignore") {
      mapped.push({ key: answer.key, label: answer.label, target, field: null });
    } else if (target === "extra" || target === "consent") {
      const field = names.claim(cleanName(answer.label) || cleanName(answer.key) || "Answer");
      fields.push([field, answer.value]);
      mapped.push({ key: answer.key, label: answer.label, target, field });
      if (target === "consent") consent = { value: answer.value };
    } else {
      if (target !== "name" && !NAME_PARTS.has(target)) fields.push([target, text(answer.value)]);
      mapped.push({ key: answer.key, label: answer.label, target, field: target });
    }
  });

  // eslint-disable-next-line no-control-regex -- control characters become spaces in a known field (lib/leads/one-line.ts)
  const needsMapping = /^[\s\u0000-\u001f\u007f-\u009f]*$/.test(name) ? NO_NAME : null;
  return { fields, answers: mapped, needsMapping, consent };
}

/** One target per answer, by the precedence above. */
function chooseTargets(answers: readonly Answer[], overrides: AnswerOverrides): AnswerTarget[] {
  const targets: (AnswerTarget | undefined)[] = answers.map(() => undefined);
  const taken = new Set<AnswerTarget>();
  const free = (target: AnswerTarget) => {
    if (taken.has(target)) return false;
    if (target === "name") return !taken.has("first_name") && !taken.has("last_name");
    return !NAME_PARTS.has(target) || !taken.has("name");
  };
  const claim = (index: number, target: AnswerTarget | null): boolean => {
    if (target === null || targets[index] !== undefined) return false;
    // One answer each: a lead field, or the consent.
    if (target !== "extra" && target !== "ignore") {
      if (!free(target)) return false;
      taken.add(target);
    }
    targets[index] = target;
    return true;
  };

  answers.forEach((answer, index) => {
    const override = Object.hasOwn(overrides, answer.key) ? overrides[answer.key] : undefined;
    // An override that cannot be honoured (its field is already filled) keeps the answer as an extra field: never remapped silently.
    if (isAnswerTarget(override) && !claim(index, override)) claim(index, "extra");
  });
  // A builder's metadata row is ignored unless the team mapped it above.
  answers.forEach((answer, index) => claim(index, answer.type === "meta" ? "ignore" : typeTarget(answer)));
  answers.forEach((answer, index) => {
    // A typed answer keeps its type's meaning; a file is never a lead field.
    if (answer.type && (BY_TYPE.has(answer.type) || answer.type === "file")) return;
    claim(index, labelTarget(answer));
  });
  return targets.map((target) => target ?? "extra");
}

function typeTarget(answer: Answer): LeadFieldTarget | null {
  const target = answer.type ? BY_TYPE.get(answer.type) : undefined;
  if (target === "phone" && recogniseHeader(answer.label) === "mobile_no") return "mobile_no";
  return target ?? null;
}

/** The lead field the label names, else the one the key's last segment names ("contact.email", a hidden "utm_source"). */
function labelTarget(answer: Answer): LeadFieldTarget | null {
  const last = answer.key.slice(answer.key.lastIndexOf(".") + 1);
  for (const name of [answer.label, last]) {
    const target = recogniseHeader(name);
    if (LEAD_FIELDS.has(target)) return target as LeadFieldTarget;
  }
  return null;
}

/** A lead field holds one text: a list's values are joined. */
function text(value: AnswerValue): string {
  return Array.isArray(value) ? value.join(", ") : String(value);
}

/**
 * A label as an extra field's name, as parseLeadInput takes names: one line, valid
 * Unicode, without the "[]" that would make it a list of another field.
 */
function cleanName(label: string): string {
  return (
    label
      .toWellFormed()
      // eslint-disable-next-line no-control-regex -- line breaks and control characters in a label become one space
      .replace(/[\s\u0000-\u001f\u007f]+/g, " ")
      .trim()
      .replace(/(\[\])+$/, "")
      .trim()
  );
}

/**
 * Names handed out once each: `base`, else "base (2)", "base (3)" …, cut with "…" to the
 * extra field name limit. Each base remembers its next number, so a delivery repeating one
 * label thousands of times costs linear time, not quadratic.
 */
class UniqueNames {
  private readonly taken: Set<string>;
  private readonly next = new Map<string, number>();

  constructor(reserved: Iterable<string>) {
    this.taken = new Set(reserved);
  }

  claim(base: string): string {
    for (let n = this.next.get(base) ?? 1; ; n++) {
      const suffix = n === 1 ? "" : ` (${n})`;
      const name = fit(base, LIMITS.extraFieldKey - suffix.length) + suffix;
      if (!this.taken.has(name)) {
        this.taken.add(name);
        this.next.set(base, n + 1);
        return name;
      }
    }
  }
}

function fit(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  // Never keep half of a surrogate pair: parseLeadInput refuses a name that is not valid Unicode.
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}
