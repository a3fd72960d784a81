import { methodNotAllowed } from "@/lib/http/envelope";
import { confirmationPage, confirmationPost } from "@/lib/consent/confirmation-page";
import { confirmHeldSubmissions, confirmPersonHeld } from "@/lib/intake/confirm-held";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ team: string; token: string }> };

// A double opt-in link (docs/consent.md "Double opt-in"): GET shows, POST confirms; the rules are lib/consent/'s,
// a held submission's lead is the intake's (lib/intake/confirm-held.ts).
export async function GET(_request: Request, { params }: Params): Promise<Response> {
  const { team, token } = await params;
  return confirmationPage(team, token);
}

export async function POST(request: Request, { params }: Params): Promise<Response> {
  const { team, token } = await params;
  return confirmationPost(request, team, token, confirmHeldSubmissions, confirmPersonHeld);
}

const refused = methodNotAllowed("GET, POST");
export { refused as PUT, refused as PATCH, refused as DELETE };
