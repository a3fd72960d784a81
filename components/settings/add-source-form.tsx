"use client";

import { useActionState, useEffect, useRef } from "react";
import { addLeadSourceAction } from "@/app/t/[slug]/settings/sources/actions";
import { buttonClass, cardClass, inputClass, labelClass } from "@/components/ui/styles";
import { SubmitButton } from "@/components/ui/submit-button";
import { FormMessage } from "./form-message";

export function AddSourceForm({ slug }: { slug: string }) {
  const [state, action, pending] = useActionState(addLeadSourceAction, null);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (state?.ok) form.current?.reset();
  }, [state]);
  return (
    <form ref={form} action={action} className={`${cardClass} p-5`}>
      <input type="hidden" name="slug" value={slug} />
      <label htmlFor="source-name" className={labelClass}>
        New source
      </label>
      <div className="mt-1.5 flex gap-2">
        <input id="source-name" name="name" required maxLength={100} placeholder="e.g. Website" className={inputClass} />
        <SubmitButton pending={pending} label="Add source" className={`${buttonClass("primary")} shrink-0`} />
      </div>
      <div className="mt-2">
        <FormMessage state={state} success="Source added." />
      </div>
    </form>
  );
}
