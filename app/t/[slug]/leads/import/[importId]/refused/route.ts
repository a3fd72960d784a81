import { AccessDenied, MANAGERS, requireTeamRole } from "@/lib/auth/require-team-role";
import { ApiError } from "@/lib/http/api-error";
import { errorResponse } from "@/lib/http/envelope";
import { findImport } from "@/lib/imports/import-store";
import { refusedRowsCsv } from "@/lib/imports/lead-import";
import { csvDownload } from "@/app/t/[slug]/leads/csv-download";

// GET /t/<slug>/leads/import/<id>/refused: an import's refused rows as CSV with a `reason`
// column (owners and admins). Thin: lib/imports/lead-import.ts.

const DENIED = { "signed-out": 401, forbidden: 403, "not-member": 404 } as const;

export async function GET(_request: Request, { params }: { params: Promise<{ slug: string; importId: string }> }): Promise<Response> {
  const { slug, importId } = await params;
  try {
    const { team } = await requireTeamRole(slug, MANAGERS);
    const record = await findImport(team.id, importId);
    if (!record) return errorResponse(new ApiError(404, "No such import", "Not found"));
    const base =
      record.fileName
        .replace(/\.csv$/i, "")
        .replace(/[^\w.-]+/g, "_")
        .slice(0, 80) || "import";
    return csvDownload(refusedRowsCsv(record), `${base}-refused.csv`);
  } catch (error) {
    if (error instanceof AccessDenied) return errorResponse(new ApiError(DENIED[error.reason], error.message, "Access denied"));
    return errorResponse(error);
  }
}
