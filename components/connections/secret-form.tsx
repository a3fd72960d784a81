"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { setConnectionSecretAction } from "@/app/t/[slug]/settings/connections/actions";
import { Field } from "@/components/ui/field";
import { ActionOutcome } from "@/components/ui/form-error";
import { inputClass } from "@/components/ui/styles";
import { SubmitButton } from "@/components/ui/submit-button";
import { useFormAction } from "@/components/ui/use-form-action";

/**
 * The signing secret a builder made (Webflow), pasted in by a manager; or, `optional`, the
 * secret a Generic connection's sender must send in X-Connection-Secret. Never shown back.
 */
export function SecretForm({
  slug,
  connectionId,
  builderName,
  optional = false,
  isSet,
}: {
  slug: string;
  connectionId: string;
  builderName: string;
  optional?: boolean;
  isSet: boolean;
}) {
  const router = useRouter();
  const [status, setStatus] = useState<string | null>(null);
  // The secret leaves the page once saved: the field is emptied.
  const formRef = useRef<HTMLFormElement>(null);
  const { pending, error, onSubmit } = useFormAction(
    (form) => setConnectionSecretAction(slug, connectionId, String(form.get("secret") ?? "")),
    {
      unreachable: "The server could not be reached; the secret was not saved. Try again.",
      onDone: () => {
        formRef.current?.reset();
        setStatus(`${optional ? "Secret" : "Signing secret"} saved. Deliveries are checked with it from now on.`);
        router.refresh();
      },
    },
  );
  return (
    <form ref={formRef} onSubmit={onSubmit} className="space-y-3">
      <Field id="connection-secret-input" label={optional ? "Secret (at least 16 characters)" : `Signing secret from ${builderName}`}>
        <input
          id="connection-secret-input"
          name="secret"
          type="password"
          autoComplete="off"
          required
          minLength={optional ? 16 : undefined}
          maxLength={500}
          className={`${inputClass} mt-1.5`}
        />
      </Field>
      <p className="text-sm text-slate-700">
        {isSet
          ? `A secret is set (it is never shown). Saving replaces it.${optional ? " Every delivery must send it in the X-Connection-Secret header." : ""}`
          : optional
            ? "No secret: the URL alone is the credential. Once one is set, every delivery must send it in the X-Connection-Secret header."
            : "No secret yet: every delivery is refused until one is set."}
      </p>
      <ActionOutcome error={error} status={status} />
      <SubmitButton pending={pending} label={optional ? "Save secret" : "Save signing secret"} pendingLabel="Saving…" />
    </form>
  );
}
