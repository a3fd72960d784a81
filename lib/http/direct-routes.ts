import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { errorResponse } from "./envelope";
import { requestContext } from "./request-context";
import { apiSecurityHeaders } from "./security-headers";

// API routes served beside Next's router (docs/performance.md "The intake beside Next's
// router"). Next spends about 0.6 ms of CPU on every request before and after a route
// handler (routing, its request and response objects, its headers() rules), more than the
// whole of a create_lead's own work. A route handler that registers here with
// `serveDirectly` (create_lead, a form builder's delivery, the bench's limit route) is
// called by scripts/serve.mjs straight from Node's request: the same handler function of
// the same module (Next loaded it: the route's first request is Next's, and registers it),
// given a Web Request and its dynamic segment as Next gives them, and its Response written
// back with the security headers next.config.ts gives the API
// (lib/http/security-headers.ts).
//
// Only a request of the registered method on exactly the registered path (its dynamic
// segment made of URL-safe characters), with no query string, is served here; everything
// else (other methods, a trailing slash, a query string, a percent-encoded segment) goes to
// Next as before, which is also how the tests compare the two (e2e/api/direct-routes.spec.ts).
// A registered route must be an API route whose handler answers through
// lib/http/envelope.ts's respond(), reads nothing of Next's (no next/headers, no cookies()),
// and answers with a small body: it is read whole before it is written, and never
// compressed (Next gzipped every answer when the client accepted it, an 80-byte JSON
// envelope included, which came out larger).

/** What Next gives a route handler beside the request: its dynamic segment's value, if it has one. */
export type DirectContext<Params extends Record<string, string> = Record<string, string>> = { params: Promise<Params> };

export type DirectHandler<Params extends Record<string, string> = Record<string, string>> = (
  request: Request,
  context: DirectContext<Params>,
) => Promise<Response>;

/** The function scripts/serve.mjs calls with every request: true when it took the request. */
export type DirectDispatch = (req: IncomingMessage, res: ServerResponse) => boolean;

export const DIRECT_ROUTES_HOOK = Symbol.for("lead-intake.direct-routes");

/** A dynamic segment's value served here: URL-safe characters, not a dot segment. Anything else (percent-encoded text, which Next decodes) goes to Next. */
const SEGMENT = /^[A-Za-z0-9_~-][A-Za-z0-9_.~-]*$/;
const DYNAMIC = /^(.*\/)\[([A-Za-z]+)\]$/;

type Routes = {
  /** "POST /api/method/…" → its handler. */
  exact: Map<string, DirectHandler>;
  /** "POST /api/connections/" → the name of the last segment and the handler. */
  dynamic: Map<string, { name: string; handler: DirectHandler }>;
};

// Route handlers are bundled apart, and serve.mjs is outside the bundle: the routes and the
// function that serves them live on globalThis.
const holder = globalThis as unknown as { leadIntakeDirectRoutes?: Routes } & Record<symbol, unknown>;

function routes(): Routes {
  if (!holder.leadIntakeDirectRoutes) {
    holder.leadIntakeDirectRoutes = { exact: new Map(), dynamic: new Map() };
    holder[DIRECT_ROUTES_HOOK] = dispatch satisfies DirectDispatch;
  }
  return holder.leadIntakeDirectRoutes;
}

/**
 * Serves `method pathname` beside Next's router from now on (called where the route module is
 * evaluated). The path may end in one dynamic segment, as the route's folder names it
 * (`/api/connections/[token]`).
 */
export function serveDirectly<Params extends Record<string, string>>(
  method: "POST",
  pathname: `/api/${string}`,
  handler: DirectHandler<Params>,
): void {
  if (pathname.startsWith("/api/forms/")) throw new Error("Web form pages have a policy of their own: serve them through Next");
  const dynamic = DYNAMIC.exec(pathname);
  if (dynamic) routes().dynamic.set(`${method} ${dynamic[1]}`, { name: dynamic[2]!, handler: handler as unknown as DirectHandler });
  else routes().exact.set(`${method} ${pathname}`, handler as unknown as DirectHandler);
}

/** The handler of a request and its segment's value, or null for Next. */
function routeOf(req: IncomingMessage): { handler: DirectHandler; params: Record<string, string> } | null {
  const target = `${req.method} ${req.url}`;
  const { exact, dynamic } = routes();
  const handler = exact.get(target);
  if (handler) return { handler, params: {} };
  const slash = target.lastIndexOf("/");
  const route = dynamic.get(target.slice(0, slash + 1));
  const segment = target.slice(slash + 1);
  return route && SEGMENT.test(segment) ? { handler: route.handler, params: { [route.name]: segment } } : null;
}

function dispatch(req: IncomingMessage, res: ServerResponse): boolean {
  const route = routeOf(req);
  if (!route) return false;
  let request: Request;
  try {
    request = webRequest(req);
  } catch {
    // A Host header that makes no URL: Next answers it as it always did.
    return false;
  }
  // answer() turns every error of the handler into its answer; what could still throw is
  // writing to a connection that broke, which leaves nothing to answer.
  answer(() => route.handler(request, { params: Promise.resolve(route.params) }), request, res).catch(() => res.destroy());
  return true;
}

/** The Web Request Next would give the handler: the URL from Host and X-Forwarded-Proto (serve.mjs sets both), every header, the body as a stream. */
function webRequest(req: IncomingMessage): Request {
  const forwardedProto = req.headers["x-forwarded-proto"] === "https" ? "https" : "http";
  const url = new URL(req.url!, `${forwardedProto}://${req.headers.host ?? "localhost"}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const init: RequestInit & { duplex: "half" } = {
    method: req.method,
    headers,
    body: bodyOf(req),
    duplex: "half",
  };
  return new Request(url, init);
}

/**
 * The body as a Web stream that touches `req` only once it is read. A body the handler never
 * reads (a refused key) is left to Node, which discards it after the answer and keeps the
 * connection, as it does for Next; one the handler stops reading (too large: that answer
 * closes the connection) is discarded from then on rather than cutting the connection
 * before the answer is written.
 */
function bodyOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        reader ??= (Readable.toWeb(req) as ReadableStream<Uint8Array>).getReader();
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel() {
        reader?.releaseLock();
        req.removeAllListeners("data");
        req.resume();
      },
    },
    { highWaterMark: 0 },
  );
}

async function answer(handle: () => Promise<Response>, request: Request, res: ServerResponse): Promise<void> {
  let response: Response;
  try {
    response = await handle();
  } catch (thrown) {
    // respond() answers every error itself; this is for a handler that does not use it.
    response = errorResponse(thrown, requestContext(request));
  }
  let body: Buffer;
  try {
    body = Buffer.from(await response.arrayBuffer());
  } catch {
    res.destroy();
    return;
  }
  // The request's scheme is webRequest()'s reading of X-Forwarded-Proto.
  for (const { key, value } of apiSecurityHeaders(request.url.startsWith("https:"))) res.setHeader(key, value);
  for (const [name, value] of response.headers) if (name !== "set-cookie") res.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader("Set-Cookie", cookies);
  res.statusCode = response.status;
  res.end(body);
}
