import { AccessDenied, MANAGERS, requireTeamRole } from "@/lib/auth/require-team-role";
import { ApiError, validationError } from "@/lib/http/api-error";
import { errorResponse, jsonResponse } from "@/lib/http/envelope";
import { FOREIGN_REQUEST_MESSAGE, originProblem } from "@/lib/http/same-origin";
import { CsvFileError, ImportLimitError, MAX_IMPORT_BYTES, uploadImport } from "@/lib/imports/lead-import";

// POST /api/teams/<slug>/imports: the file of Leads → Import, as the raw request body (its
// name in X-File-Name, URI-encoded), streamed to DATA_DIR (owners and admins). Under /api/
// so that no proxy buffers a 50 MB body; same-origin only, like every server action.
// Thin: the checks and the draft import are lib/imports/lead-import.ts.

export const dynamic = "force-dynamic";

const DENIED = { "signed-out": 401, forbidden: 403, "not-member": 404 } as const;

function fileName(header: string | null): string {
  try {
    return header ? decodeURIComponent(header) : "import.csv";
  } catch {
    return "import.csv";
  }
}

export async function POST(request: Request, { params }: { params: Promise<{ slug: string }> }): Promise<Response> {
  const { slug } = await params;
  try {
    if (originProblem(request.headers)) throw new ApiError(403, FOREIGN_REQUEST_MESSAGE, "Access denied");
    const { team, user } = await requireTeamRole(slug, MANAGERS);
    const length = Number(request.headers.get("content-length") ?? "0");
    if (length > MAX_IMPORT_BYTES)
      throw new ApiError(
        413,
        `The file is over ${MAX_IMPORT_BYTES / 1024 / 1024} MB; an import takes at most ${MAX_IMPORT_BYTES / 1024 / 1024} MB. Split it into smaller files.`,
        "Payload too large",
      );
    if (!request.body) throw validationError("The file is empty.");
    const { record } = await uploadImport({
      teamId: team.id,
      fileName: fileName(request.headers.get("x-file-name")),
      body: request.body,
      createdById: user.id,
    });
    return jsonResponse({ success: true, import_id: record.id }, 201);
  } catch (error) {
    if (error instanceof AccessDenied) return errorResponse(new ApiError(DENIED[error.reason], error.message, "Access denied"));
    // Too many uploads under way, or drafts kept: not the file's fault (lib/imports/import-drafts.ts).
    if (error instanceof ImportLimitError) return errorResponse(new ApiError(429, error.message, "Too many uploads"));
    if (error instanceof CsvFileError) return errorResponse(validationError(error.message));
    return errorResponse(error);
  }
}
