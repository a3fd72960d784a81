"use client";

import { rollApiKeyAction, updateApiKeyAction } from "@/app/t/[slug]/settings/api-keys/actions";
import { EXPIRY_CHOICES } from "@/lib/api-keys/key-expiry";
import { Field } from "@/components/ui/field";
import { FormDialog } from "@/components/ui/form-dialog";
import { buttonClass, inputClass } from "@/components/ui/styles";
import { ExpirySelect, RollDialog } from "./expiry-select";

const smallTrigger = (text: string) => ({ text, className: buttonClass("secondary", "sm") });
const UNCHANGED = "The server could not be reached; nothing was changed. Try again.";

/** Rename a key and set or remove its expiry (owners and admins). */
export function EditKeyButton({
  slug,
  keyId,
  keyName,
  description,
  expiresText,
}: {
  slug: string;
  keyId: string;
  keyName: string;
  description: string | null;
  /** "Keep: expires in 3 hours", when the key has an expiry. */
  expiresText: string | null;
}) {
  return (
    <FormDialog
      triggerLabel={`Edit ${keyName}`}
      trigger={smallTrigger("Edit")}
      title="Edit API key"
      description={
        <>
          Key <code className="font-mono text-slate-800">{keyId}</code>. Its id and secret stay the same.
        </>
      }
      submitLabel="Save"
      pendingLabel="Saving…"
      unreachable={UNCHANGED}
      submit={(form) => updateApiKeyAction(slug, keyId, String(form.get("description") ?? ""), String(form.get("expiry") ?? "keep"))}
      notice={() => `Key ${keyId} saved.`}
    >
      <Field id={`edit-description-${keyId}`} label="Description">
        <input
          id={`edit-description-${keyId}`}
          name="description"
          maxLength={200}
          defaultValue={description ?? ""}
          className={`${inputClass} mt-1.5`}
          autoFocus
        />
      </Field>
      <Field id={`edit-expiry-${keyId}`} label="Expires">
        <ExpirySelect id={`edit-expiry-${keyId}`} choices={EXPIRY_CHOICES} keep={expiresText ?? "Never (keep)"} />
      </Field>
    </FormDialog>
  );
}

/** Roll a key: a replacement with the same description; the old key expires as chosen. */
export function RollKeyButton({ slug, keyId, keyName }: { slug: string; keyId: string; keyName: string }) {
  return (
    <RollDialog
      triggerLabel={`Roll ${keyName}`}
      trigger={smallTrigger("Roll")}
      title="Roll API key"
      description={
        <>
          A new key with a new secret and the same description replaces key <code className="font-mono text-slate-800">{keyId}</code>. Put
          the new secret on your server, then let the old key expire.
        </>
      }
      submitLabel="Roll key"
      pendingLabel="Rolling…"
      unreachable={UNCHANGED}
      expiry={{ id: `roll-expiry-${keyId}`, label: "The old key stops working", initial: "24h" }}
      submit={(expiry) => rollApiKeyAction(slug, keyId, expiry)}
      notice={(result) => `Key ${result.keyId} generated to replace ${keyId}. Copy its secret now.`}
    />
  );
}
