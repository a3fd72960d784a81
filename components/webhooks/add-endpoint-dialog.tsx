"use client";

import { addEndpointAction } from "@/app/t/[slug]/settings/webhooks/actions";
import { FormDialog } from "@/components/ui/form-dialog";
import { EndpointFields, endpointInput } from "./endpoint-fields";

export function AddEndpointDialog({ slug }: { slug: string }) {
  return (
    <FormDialog
      triggerLabel="Add endpoint"
      title="Add webhook endpoint"
      description="Each event is POSTed to this URL as JSON, signed with the endpoint's secret (Standard Webhooks)."
      submitLabel="Add endpoint"
      pendingLabel="Adding…"
      submit={(form) => addEndpointAction(slug, endpointInput(form))}
      notice={() => "Endpoint added. Open it to reveal its signing secret or send a test event."}
    >
      <EndpointFields idPrefix="endpoint" />
    </FormDialog>
  );
}
