"use client";

import Link from "next/link";
import { useState } from "react";
import { createConnectionAction } from "@/app/t/[slug]/settings/connections/actions";
import { BUILDER_GUIDES } from "@/lib/connections/builder-guides";
import type { BuilderId } from "@/lib/connections/builders";
import { CHANNEL_REPEATS_DEFAULT } from "@/lib/leads/repeats";
import { CHANNEL_SPAM_CHECKS_DEFAULT } from "@/lib/spam/spam-checks-setting";
import { RepeatsFieldset } from "@/components/settings/repeats-choice";
import { SpamChecksSwitch, spamChecksSent } from "@/components/settings/spam-checks-choice";
import { Field } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { SelectOptions, type Choice } from "@/components/ui/select-options";
import { cardClass, inputClass, linkClass } from "@/components/ui/styles";
import { SubmitButton } from "@/components/ui/submit-button";
import { useFormAction } from "@/components/ui/use-form-action";
import { ShownOnce } from "./shown-once";

type Created = { id: string; url: string; signingSecret: string | null; builder: BuilderId };

const builderOf = (form: FormData) => String(form.get("builder") ?? "") as BuilderId;

/**
 * "Connect a form builder": the builder, a name, what a repeat submission does and the spam checks; then its
 * URL and secret, once, with the builder's steps. `windowDays`: the team's repeat window.
 */
export function ConnectForm({ slug, builders, windowDays }: { slug: string; builders: Choice[]; windowDays: number }) {
  const [created, setCreated] = useState<Created | null>(null);
  const { pending, error, onSubmit } = useFormAction(
    (form) =>
      createConnectionAction(
        slug,
        builderOf(form),
        String(form.get("name") ?? ""),
        String(form.get("repeats") ?? CHANNEL_REPEATS_DEFAULT),
        spamChecksSent(form),
      ),
    {
      unreachable: "The server could not be reached; nothing was made. Try again.",
      onDone: (result, form) => setCreated({ ...result, builder: builderOf(form) }),
    },
  );

  if (created) {
    return (
      <div className="space-y-3">
        <p role="status" className="text-sm text-slate-800">
          Connection made.
        </p>
        <ShownOnce url={created.url} signingSecret={created.signingSecret} guide={BUILDER_GUIDES[created.builder]} />
        <p className="flex flex-wrap gap-4 text-sm">
          <Link href={`/t/${slug}/settings/connections/${created.id}`} className={linkClass}>
            Open the connection
          </Link>
          <button type="button" className={linkClass} onClick={() => setCreated(null)}>
            Connect another form builder
          </button>
        </p>
      </div>
    );
  }
  return (
    <form onSubmit={onSubmit} className={`${cardClass} space-y-4 p-5`}>
      <Field id="connection-builder" label="Form builder">
        <select id="connection-builder" name="builder" required defaultValue="" className={`${inputClass} mt-1.5`}>
          <SelectOptions none="Choose…" choices={builders} />
        </select>
      </Field>
      <Field id="connection-name" label="Name" optional>
        <input id="connection-name" name="name" maxLength={100} placeholder="e.g. Contact form" className={`${inputClass} mt-1.5`} />
      </Field>
      <RepeatsFieldset idPrefix="connection-new" defaultValue={CHANNEL_REPEATS_DEFAULT} windowDays={windowDays} />
      <SpamChecksSwitch idPrefix="connection-new" channel="connection" checked={CHANNEL_SPAM_CHECKS_DEFAULT} />
      <FormError error={error} className="text-sm text-red-700" />
      <SubmitButton pending={pending} label="Connect" pendingLabel="Connecting…" />
    </form>
  );
}
