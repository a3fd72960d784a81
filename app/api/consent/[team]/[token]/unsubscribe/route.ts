import { methodNotAllowed } from "@/lib/http/envelope";
import { unsubscribePage, unsubscribePost } from "@/lib/consent/confirmation-page";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ team: string; token: string }> };

// The confirmation email's List-Unsubscribe address (RFC 8058 one-click POST); GET shows a button and changes nothing.
export async function GET(_request: Request, { params }: Params): Promise<Response> {
  const { team, token } = await params;
  return unsubscribePage(team, token);
}

export async function POST(request: Request, { params }: Params): Promise<Response> {
  const { team, token } = await params;
  return unsubscribePost(request, team, token);
}

const refused = methodNotAllowed("GET, POST");
export { refused as PUT, refused as PATCH, refused as DELETE };
