"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Field } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { inputClass } from "@/components/ui/styles";
import { SubmitButton } from "@/components/ui/submit-button";

/**
 * Step 1 of Leads → Import: the file is sent as the request body (up to 50 MB), stored
 * and checked by the server; a file that cannot be imported is refused with its reason.
 */
export function UploadForm({ slug, maxMegabytes }: { slug: string; maxMegabytes: number }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function upload(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const file = (new FormData(event.currentTarget).get("file") as File | null) ?? null;
    if (!file || !file.name) {
      setError("Choose a CSV file first.");
      return;
    }
    if (file.size > maxMegabytes * 1024 * 1024) {
      setError(`The file is over ${maxMegabytes} MB; an import takes at most ${maxMegabytes} MB. Split it into smaller files.`);
      return;
    }
    setError(null);
    setPending(true);
    try {
      const response = await fetch(`/api/teams/${encodeURIComponent(slug)}/imports`, {
        method: "POST",
        body: file,
        headers: { "Content-Type": "text/csv", "X-File-Name": encodeURIComponent(file.name) },
      });
      const body = (await response.json().catch(() => null)) as { import_id?: string; error?: string } | null;
      if (response.ok && body?.import_id) {
        router.push(`/t/${slug}/leads/import?id=${body.import_id}`);
        return;
      }
      setError(body?.error ?? `The upload failed (HTTP ${response.status}). Try again.`);
    } catch {
      setError("The server could not be reached. Check your connection and try again.");
    }
    setPending(false);
  }

  return (
    <form onSubmit={upload} className="space-y-4">
      <Field id="import-file" label="CSV file">
        <input
          id="import-file"
          name="file"
          type="file"
          accept=".csv,.tsv,.txt,text/csv"
          className={`${inputClass} mt-1`}
          aria-describedby="import-file-help"
        />
        <p id="import-file-help" className="mt-1 text-sm text-slate-600">
          UTF-8 (with or without BOM) or UTF-16; comma, semicolon or tab between cells; up to {maxMegabytes} MB. The first row names the
          columns.
        </p>
      </Field>
      <FormError error={error} />
      <SubmitButton pending={pending} label="Upload" pendingLabel="Uploading and checking…" />
    </form>
  );
}
