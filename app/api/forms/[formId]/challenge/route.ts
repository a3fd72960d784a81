import { methodNotAllowed } from "@/lib/http/envelope";
import { answerChallenge, answerFormPreflight } from "@/lib/intake/web-form-endpoint";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ formId: string }> };

// The proof-of-work challenge the form's widget fetches before a submit.
export async function GET(request: Request, { params }: Params): Promise<Response> {
  return answerChallenge(request, (await params).formId);
}

export async function OPTIONS(request: Request, { params }: Params): Promise<Response> {
  return answerFormPreflight(request, (await params).formId, "GET");
}

// Every other method: 405 with Allow: GET.
const refused = methodNotAllowed("GET");
export { refused as POST, refused as PUT, refused as PATCH, refused as DELETE };
