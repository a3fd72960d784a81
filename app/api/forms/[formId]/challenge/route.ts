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

export const POST = methodNotAllowed("GET");
export const PUT = methodNotAllowed("GET");
export const PATCH = methodNotAllowed("GET");
export const DELETE = methodNotAllowed("GET");
