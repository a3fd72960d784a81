"use client";

import { ErrorMessage } from "@/components/layout/error-message";

// A page outside the teams (home, sign-in, invites) that failed.
export default function RootError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main id="main" tabIndex={-1} className="outline-none">
      <ErrorMessage digest={error.digest} reset={reset} />
    </main>
  );
}
