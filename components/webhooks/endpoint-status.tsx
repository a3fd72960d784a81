import type { EndpointView } from "@/lib/webhooks/webhook-endpoint-store";
import { Badge } from "@/components/ui/badge";

export function EndpointStatus({ endpoint }: { endpoint: EndpointView }) {
  if (endpoint.enabled) {
    return endpoint.failingSince ? <Badge tone="amber">Enabled, failing</Badge> : <Badge tone="green">Enabled</Badge>;
  }
  return endpoint.disabledReason === "failing" ? <Badge tone="red">Disabled: kept failing</Badge> : <Badge>Disabled</Badge>;
}
