import type { MappedAnswer } from "@/lib/connections/map-answers";
import { LEAD_FIELD_TARGETS } from "@/lib/imports/column-mapping";
import { cardClass } from "@/components/ui/styles";

const LEAD_FIELD_LABELS = new Map<string, string>(LEAD_FIELD_TARGETS);

/** Where an answer went: a lead field by its label, an extra field by its name, the consent, or nowhere. */
function wentTo(answer: MappedAnswer): string {
  if (answer.field === null) return "Ignored";
  if (answer.target === "extra") return `Extra field “${answer.field}”`;
  if (answer.target === "consent") return `Consent (extra field “${answer.field}”)`;
  return LEAD_FIELD_LABELS.get(answer.target) ?? answer.field;
}

/** Answers as a list: each question's label and where it went (never its value: the log keeps none). */
export function AnswerList({ answers, label, className = "" }: { answers: MappedAnswer[]; label: string; className?: string }) {
  return (
    <ul className={`${cardClass} divide-y divide-slate-100 text-sm ${className}`} aria-label={label}>
      {answers.map((answer) => (
        <li key={answer.key} className="flex flex-wrap justify-between gap-2 px-5 py-3">
          <span className="font-medium text-slate-900 [overflow-wrap:anywhere]">{answer.label}</span>
          <span className="text-slate-700 [overflow-wrap:anywhere]">{wentTo(answer)}</span>
        </li>
      ))}
    </ul>
  );
}
