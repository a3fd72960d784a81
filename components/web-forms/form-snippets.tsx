import { CopyButton } from "@/components/ui/copy-button";
import { cardClass, focusRingClass } from "@/components/ui/styles";
import { fetchSnippet, htmlSnippet, type SnippetForm } from "@/lib/web-forms/snippets";

/** The copy-paste HTML of a form: a plain form post, and the fetch variant. */
export function FormSnippets({ form, baseUrl }: { form: SnippetForm & { name: string }; baseUrl: string }) {
  const snippets = [
    {
      title: "HTML form",
      note: "Paste into any page of an allowed origin. The visitor is sent to the success page.",
      code: htmlSnippet(form, baseUrl),
    },
    { title: "With fetch", note: "The same form sent in the background; the answer shows below it.", code: fetchSnippet(form, baseUrl) },
  ];
  return (
    <div className="space-y-4">
      {snippets.map((snippet) => (
        <section key={snippet.title} className={`${cardClass} p-4`} aria-label={`${snippet.title} snippet`}>
          <div className="mb-2 flex items-center justify-between gap-2">
            <h3 className="text-sm font-semibold text-slate-900">{snippet.title}</h3>
            <CopyButton text={snippet.code} label={`Copy the ${snippet.title} snippet of ${form.name}`} />
          </div>
          <p className="mb-2 text-xs text-slate-600">{snippet.note}</p>
          <pre tabIndex={0} className={`max-h-72 overflow-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100 ${focusRingClass}`}>
            <code>{snippet.code}</code>
          </pre>
        </section>
      ))}
    </div>
  );
}
