import { SearchBox } from "@/components/ui/search-box";

/** Leads → Spam's search (`q`), a plain GET form: the search lives in the URL. */
export function SpamSearch({ action, query }: { action: string; query: string }) {
  return (
    <form role="search" aria-label="Search spam" action={action} className="mb-4 w-full max-w-2xl">
      <SearchBox id="spam-search" label="Search spam" query={query} placeholder="Name, email or phone" />
    </form>
  );
}
