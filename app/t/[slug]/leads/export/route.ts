import { headers } from "next/headers";
import { webActor } from "@/lib/audit/audit-log";
import { AccessDenied, MANAGERS, requireTeamRole } from "@/lib/auth/require-team-role";
import { ApiError } from "@/lib/http/api-error";
import { errorResponse } from "@/lib/http/envelope";
import { exportLeadsCsv } from "@/lib/leads/export-leads";
import { parseLeadFilter } from "@/lib/leads/lead-filter";
import { csvDownload } from "@/app/t/[slug]/leads/csv-download";

// GET /t/<slug>/leads/export?<the list's filter>: the CSV download (owners and admins).
// Thin: the rules and the stream are lib/leads/export-leads.ts.

const DENIED = { "signed-out": 401, forbidden: 403, "not-member": 404 } as const;

export async function GET(request: Request, { params }: { params: Promise<{ slug: string }> }): Promise<Response> {
  const { slug } = await params;
  try {
    const { team, user } = await requireTeamRole(slug, MANAGERS);
    const filter = parseLeadFilter(new URL(request.url).searchParams);
    const body = await exportLeadsCsv({ team, filter, actor: webActor(user.id, await headers()) });
    const day = new Date().toISOString().slice(0, 10);
    return csvDownload(body, `leads-${team.slug}-${day}.csv`);
  } catch (error) {
    if (error instanceof AccessDenied) return errorResponse(new ApiError(DENIED[error.reason], error.message, "Access denied"));
    return errorResponse(error);
  }
}
