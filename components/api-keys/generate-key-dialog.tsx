"use client";

import { generateApiKeyAction } from "@/app/t/[slug]/settings/api-keys/actions";
import { EXPIRY_CHOICES } from "@/lib/api-keys/key-expiry";
import { API_KEY_REPEATS_DEFAULT } from "@/lib/leads/repeats";
import { API_KEY_SPAM_CHECKS_DEFAULT } from "@/lib/spam/spam-checks-setting";
import { RepeatsFieldset } from "@/components/settings/repeats-choice";
import { SpamChecksSwitch, spamChecksSent } from "@/components/settings/spam-checks-choice";
import { Field } from "@/components/ui/field";
import { FormDialog } from "@/components/ui/form-dialog";
import { inputClass } from "@/components/ui/styles";
import { ExpirySelect } from "./expiry-select";

/** `windowDays`: the team's repeat window, which the repeat choice's hint names. */
export function GenerateKeyDialog({ slug, windowDays }: { slug: string; windowDays: number }) {
  return (
    <FormDialog
      triggerLabel="Generate Key"
      title="Generate API key"
      description="The secret stays visible in the list until someone copies it once. After that only a masked form remains."
      submitLabel="Generate"
      pendingLabel="Generating…"
      submit={(form) =>
        generateApiKeyAction(
          slug,
          String(form.get("description") ?? ""),
          String(form.get("expiry") ?? "never"),
          String(form.get("repeats") ?? API_KEY_REPEATS_DEFAULT),
          spamChecksSent(form),
        )
      }
      unreachable="The server could not be reached; no key was generated. Try again."
      notice={(result) => `Key ${result.keyId} generated. Copy its secret now: after the first copy it is only shown masked.`}
    >
      <Field id="key-description" label="Description" optional>
        <input
          id="key-description"
          name="description"
          maxLength={200}
          placeholder="e.g. Website contact form"
          className={`${inputClass} mt-1.5`}
          autoFocus
        />
      </Field>
      <Field id="key-expiry" label="Expires">
        <ExpirySelect id="key-expiry" choices={EXPIRY_CHOICES} />
      </Field>
      <RepeatsFieldset idPrefix="key-new" defaultValue={API_KEY_REPEATS_DEFAULT} windowDays={windowDays} />
      <SpamChecksSwitch idPrefix="key-new" channel="api_key" checked={API_KEY_SPAM_CHECKS_DEFAULT} />
    </FormDialog>
  );
}
