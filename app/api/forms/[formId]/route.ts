import { methodNotAllowed } from "@/lib/http/envelope";
import { observeIntake } from "@/lib/operations/metrics";
import { answerFormPost, answerFormPreflight } from "@/lib/intake/web-form-endpoint";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ formId: string }> };

// A web form's submission (docs/web-forms.md); the rules are in lib/intake/submit-web-form.ts.
export async function POST(request: Request, { params }: Params): Promise<Response> {
  const { formId } = await params;
  return observeIntake("web_form", () => answerFormPost(request, formId));
}

export async function OPTIONS(request: Request, { params }: Params): Promise<Response> {
  return answerFormPreflight(request, (await params).formId, "POST");
}

export const GET = methodNotAllowed("POST");
export const PUT = methodNotAllowed("POST");
export const PATCH = methodNotAllowed("POST");
export const DELETE = methodNotAllowed("POST");
