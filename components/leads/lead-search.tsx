import { SearchIcon } from "@/components/ui/icons";
import { buttonClass, inputClass } from "@/components/ui/styles";

/** A plain GET form: the search lives in the URL, so it can be shared and survives reloads. */
export function LeadSearch({ action, query }: { action: string; query: string }) {
  return (
    <form role="search" action={action} className="flex w-full max-w-md items-center gap-2">
      <label htmlFor="lead-search" className="sr-only">
        Search leads
      </label>
      <div className="relative flex-1">
        <SearchIcon className="pointer-events-none absolute top-2.5 left-3 h-4 w-4 text-slate-400" />
        <input
          id="lead-search"
          name="q"
          type="search"
          defaultValue={query}
          maxLength={100}
          placeholder="Name, email or organization"
          className={`${inputClass} pl-9`}
        />
      </div>
      <button type="submit" className={buttonClass("secondary")}>
        Search
      </button>
    </form>
  );
}
