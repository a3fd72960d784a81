"use client";

import { ErrorMessage } from "@/components/layout/error-message";

// A page of a team that failed: shown inside the team layout, so the header stays.
export default function TeamError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <ErrorMessage digest={error.digest} reset={reset} />;
}
