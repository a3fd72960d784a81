import { HomeLink } from "@/components/layout/home-link";
import { NotFoundMessage } from "@/components/layout/not-found-message";

// A page outside any team that does not exist: the app's header (its name, home) and the 404 text.
export default function NotFound() {
  return (
    <>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex h-16 max-w-7xl items-center px-4 sm:px-6 lg:px-8">
          <HomeLink />
        </div>
      </header>
      <main id="main" tabIndex={-1} className="outline-none">
        <NotFoundMessage />
      </main>
    </>
  );
}
