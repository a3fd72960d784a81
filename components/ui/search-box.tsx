import { SearchIcon } from "./icons";
import { buttonClass, inputClass } from "./styles";

/** A search field (`q`, labelled for screen readers) and its Search button, for a GET form whose search lives in the URL. */
export function SearchBox({ id, label, query, placeholder }: { id: string; label: string; query: string; placeholder: string }) {
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <div className="relative flex-1">
        <SearchIcon className="pointer-events-none absolute top-2.5 left-3 h-4 w-4 text-slate-400" />
        <input
          id={id}
          name="q"
          type="search"
          defaultValue={query}
          maxLength={100}
          placeholder={placeholder}
          className={`${inputClass} pl-9`}
        />
      </div>
      <button type="submit" className={buttonClass("secondary")}>
        Search
      </button>
    </div>
  );
}
