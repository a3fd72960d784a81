import { cardClass } from "@/components/ui/styles";

function asText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/**
 * Spec 2.2: every extra parameter and its value, shown as plain text (a repeated field as
 * a list in the order sent), by name: the posted
 * order is not kept by every database (PostgreSQL's jsonb orders keys its own way).
 */
export function ExtraFields({ value }: { value: unknown }) {
  const entries = (value && typeof value === "object" && !Array.isArray(value) ? Object.entries(value) : []).sort(([x], [y]) =>
    x < y ? -1 : x > y ? 1 : 0,
  );
  return (
    <section aria-labelledby="extra-fields-heading" className={`${cardClass} p-5`}>
      <h2 id="extra-fields-heading" className="text-sm font-semibold text-slate-900">
        Extra Fields
      </h2>
      {entries.length ? (
        <dl className="mt-4 grid grid-cols-[10rem_minmax(0,1fr)] gap-x-4 gap-y-2.5 text-sm">
          {entries.map(([name, field]) => (
            <div key={name} className="contents">
              <dt className="break-words font-mono text-xs leading-5 text-slate-600">{name}</dt>
              <dd className="break-words whitespace-pre-wrap text-slate-900">
                {Array.isArray(field) ? (
                  <ul aria-label={name} className="list-disc space-y-0.5 pl-5">
                    {field.map((item, index) => (
                      <li key={index}>{asText(item)}</li>
                    ))}
                  </ul>
                ) : (
                  asText(field)
                )}
              </dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="mt-4 text-sm text-slate-500">No extra fields were sent with this lead.</p>
      )}
    </section>
  );
}
