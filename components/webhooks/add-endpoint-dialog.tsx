"use client";

import { addEndpointAction } from "@/app/t/[slug]/settings/webhooks/actions";
import { FormDialog } from "@/components/ui/form-dialog";
import { inputClass, labelClass } from "@/components/ui/styles";

export function AddEndpointDialog({ slug }: { slug: string }) {
  return (
    <FormDialog
      triggerLabel="Add endpoint"
      title="Add webhook endpoint"
      description="Each event is POSTed to this URL as JSON, signed with the endpoint's secret (Standard Webhooks)."
      submitLabel="Add endpoint"
      pendingLabel="Adding…"
      submit={(form) =>
        addEndpointAction(slug, {
          url: String(form.get("url") ?? ""),
          description: String(form.get("description") ?? ""),
          events: form.getAll("events").map(String),
        })
      }
      notice={() => "Endpoint added. Open it to reveal its signing secret or send a test event."}
    >
      <div>
        <label htmlFor="endpoint-url" className={labelClass}>
          URL
        </label>
        <input
          id="endpoint-url"
          name="url"
          type="url"
          required
          maxLength={2000}
          placeholder="https://example.com/hooks/leads"
          className={`${inputClass} mt-1.5`}
          autoFocus
        />
      </div>
      <div>
        <label htmlFor="endpoint-description" className={labelClass}>
          Description <span className="font-normal text-slate-500">(optional)</span>
        </label>
        <input id="endpoint-description" name="description" maxLength={200} placeholder="e.g. CRM sync" className={`${inputClass} mt-1.5`} />
      </div>
      <fieldset>
        <legend className={labelClass}>Events</legend>
        <label className="mt-1.5 flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" name="events" value="lead.created" defaultChecked className="h-4 w-4 rounded border-slate-300" />
          <code className="font-mono">lead.created</code>: a lead was created
        </label>
      </fieldset>
    </FormDialog>
  );
}
