import { AccessDenied, requireTeamRole } from "@/lib/auth/require-team-role";
import { ApiError } from "@/lib/http/api-error";
import { errorResponse } from "@/lib/http/envelope";
import { isOverviewTable, overviewCsv, overviewCsvName } from "@/lib/dashboard/overview-csv";
import { loadOverview } from "@/lib/dashboard/overview-page-data";
import { csvDownload } from "@/app/t/[slug]/leads/csv-download";

// GET /t/<slug>/leads/overview/csv?table=<one of lib/dashboard/overview-csv.ts>&<the page's
// range, interval and breakdown>: one chart's or table's numbers (every member). Thin: the
// rules are lib/dashboard/.

const DENIED = { "signed-out": 401, forbidden: 403, "not-member": 404 } as const;

export async function GET(request: Request, { params }: { params: Promise<{ slug: string }> }): Promise<Response> {
  const { slug } = await params;
  try {
    const { team } = await requireTeamRole(slug);
    const search = new URL(request.url).searchParams;
    const table = search.get("table");
    if (!isOverviewTable(table)) throw new ApiError(404, "No such table.", "Not found");
    const data = await loadOverview(team.id, search);
    return csvDownload(overviewCsv(data, table), overviewCsvName(team.slug, data, table));
  } catch (error) {
    if (error instanceof AccessDenied) return errorResponse(new ApiError(DENIED[error.reason], error.message, "Access denied"));
    return errorResponse(error);
  }
}
