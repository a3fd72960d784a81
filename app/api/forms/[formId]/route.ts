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

// Every other method: 405 with Allow: POST.
const refused = methodNotAllowed("POST");
export { refused as GET, refused as PUT, refused as PATCH, refused as DELETE };
