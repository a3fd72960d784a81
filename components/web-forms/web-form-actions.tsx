"use client";

import { deleteWebFormAction, setWebFormEnabledAction } from "@/app/t/[slug]/settings/web-forms/actions";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { buttonClass } from "@/components/ui/styles";
import { useActionRunner } from "@/components/ui/use-action-runner";

/** Disable or enable, and delete, a form (owners and admins; the actions check). */
export function WebFormActions({ slug, formId, name, enabled }: { slug: string; formId: string; name: string; enabled: boolean }) {
  const { pending, error, run } = useActionRunner();
  return (
    <div className="flex flex-wrap items-center gap-2">
      <button
        type="button"
        disabled={pending}
        className={buttonClass("secondary", "sm")}
        onClick={() => run(() => setWebFormEnabledAction(slug, formId, !enabled))}
      >
        {enabled ? "Disable" : "Enable"}
      </button>
      <ConfirmButton
        label={`Delete web form ${name}`}
        className={buttonClass("danger", "sm")}
        title={`Delete ${name}?`}
        description="Websites posting to this form get “Form not found” from now on. Leads it created stay."
        confirmLabel="Delete form"
        pendingLabel="Deleting…"
        action={() => deleteWebFormAction(slug, formId)}
      >
        Delete
      </ConfirmButton>
      <span role="alert" className="text-sm text-red-700">
        {error}
      </span>
    </div>
  );
}
