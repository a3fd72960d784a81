import { measure, type LoadResult } from "./load";
import type { Server } from "./server";

// The signed-in lead list and detail pages come from the Team Settings UI work. Until
// those pages exist (404) they are "pending UI", and the bench measures their lib
// queries instead (./lead-queries.ts).

export type LeadPage = { id: string; label: string; path: string };

export type LeadPageResult =
  { page: LeadPage; status: "ok"; result: LoadResult } | { page: LeadPage; status: "pending UI"; httpStatus: number };

/**
 * The pages to measure at a large team. Paths and parameters follow the UI's routes
 * (/t/<slug>/leads, newest first, `after` = an older-than seq cursor, `q` = a prefix
 * of name, email or organization; /t/<slug>/leads/<id>); change them here if the UI's differ.
 */
export function leadPages(options: { slug: string; deepCursor: number; emailPrefix: string; detailId: string }): LeadPage[] {
  const base = `/t/${options.slug}/leads`;
  return [
    { id: "list-first", label: "Lead list, first page", path: base },
    {
      id: "list-deep",
      label: `Lead list, deep cursor page (after seq ${options.deepCursor})`,
      path: `${base}?after=${options.deepCursor}`,
    },
    {
      id: "list-search",
      label: `Lead list, email prefix search "${options.emailPrefix}"`,
      path: `${base}?q=${encodeURIComponent(options.emailPrefix)}`,
    },
    {
      id: "list-filter",
      label: 'Lead list, filtered by UTM campaign "campaign-7", with its match count',
      path: `${base}?utm_campaign=campaign-7`,
    },
    // "My leads" as the signed-in admin sees it (the preload gives them every 4th lead), and
    // the status views: each read on its own index, (teamId, ownerId, seq), (teamId, status,
    // seq) and (teamId, ownerId, status, seq), with the views' counts and the heading's.
    { id: "list-mine", label: "Lead list, My leads (owner=me: every 4th lead)", path: `${base}?owner=me` },
    { id: "list-status", label: "Lead list, status view Contacted", path: `${base}?status=contacted` },
    { id: "list-mine-new", label: "Lead list, My leads with status view New", path: `${base}?owner=me&status=new` },
    { id: "detail", label: "Lead detail", path: `${base}/${encodeURIComponent(options.detailId)}` },
  ];
}

/** Signs in with next-auth's credentials flow; null when the app has no sign-in yet (404). */
export async function signIn(baseUrl: string, email: string, password: string): Promise<string | null> {
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
  if (csrf.status === 404) return null;
  if (!csrf.ok) throw new Error(`GET /api/auth/csrf answered ${csrf.status}`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const jar = new Map<string, string>();
  const keep = (response: Response) => {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const at = pair!.indexOf("=");
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  };
  const header = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
  keep(csrf);
  const login = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: header() },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
  });
  keep(login);
  if (![...jar.keys()].some((name) => name.endsWith("next-auth.session-token"))) {
    throw new Error(`Sign-in as ${email} failed (status ${login.status}, no session cookie)`);
  }
  return header();
}

/**
 * Measures each page signed in with `cookie`. A page that answers 404 (or no sign-in
 * at all: cookie null) is "pending UI"; any other non-2xx answer is a failure.
 */
export async function benchLeadPages(
  server: Server,
  pages: LeadPage[],
  cookie: string | null,
  run: { connections: number; duration: number; warmup: number },
): Promise<LeadPageResult[]> {
  const { baseUrl } = server;
  const results: LeadPageResult[] = [];
  for (const page of pages) {
    if (cookie === null) {
      results.push({ page, status: "pending UI", httpStatus: 404 });
      continue;
    }
    const probe = await fetch(`${baseUrl}${page.path}`, { headers: { cookie }, redirect: "manual" });
    if (probe.status === 404) {
      results.push({ page, status: "pending UI", httpStatus: 404 });
      continue;
    }
    if (!probe.ok) throw new Error(`${page.path} answered ${probe.status} when signed in`);
    const result = await measure(server, { method: "GET", path: page.path, headers: { cookie } }, run);
    results.push({ page, status: "ok", result });
  }
  return results;
}
