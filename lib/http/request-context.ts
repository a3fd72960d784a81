import { randomUUID } from "node:crypto";
import { isIP } from "node:net";
import { env } from "../env";

export type RequestContext = {
  /** Echoed in the X-Request-Id response header and written on every log line. */
  requestId: string;
  /** The client's address (IPv6 reduced to its /64), for per-IP limits and the audit trail. */
  ip: string;
  /** The User-Agent and Referer headers, clipped: a web form's are the visitor's browser's (Akismet reads them). */
  userAgent?: string | null;
  referrer?: string | null;
};

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * A caller's own X-Request-Id is kept when it is plain enough to log and echo safely
 * (so a proxy's id follows the request); anything else gets a fresh id.
 */
export function requestIdFrom(headers: Headers): string {
  const given = headers.get("x-request-id")?.trim();
  return given && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * The client address. scripts/serve.mjs puts the socket's peer address last in
 * X-Forwarded-For (and, with no trusted proxy, drops whatever the client sent), and
 * every trusted proxy appended the address it saw: so the client is the entry
 * TRUST_PROXY_HOPS places from the end. Entries further left are the client's own
 * claims and are never used.
 */
export function clientIp(headers: Pick<Headers, "get">, trustedHops = env().TRUST_PROXY_HOPS): string {
  const chain = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const candidate = chain[Math.max(chain.length - 1 - trustedHops, 0)];
  return candidate ? normaliseIp(candidate) : "unknown";
}

/**
 * Canonical text for an address: IPv4-mapped IPv6 becomes IPv4, and IPv6 is cut to
 * its /64, the block one subscriber usually gets (else one client could rotate through
 * 2^64 addresses to escape a per-IP limit). Text that is no address is kept, bounded.
 */
export function normaliseIp(raw: string): string {
  const text = raw.replace(/^\[|\](:\d+)?$/g, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(text);
  if (mapped) return mapped[1]!;
  if (isIP(text) === 4) return text;
  if (isIP(text) === 6) return `${expandIpv6(text).slice(0, 4).join(":")}::/64`;
  return `invalid:${text.slice(0, 64)}`;
}

function expandIpv6(text: string): string[] {
  const [head = "", tail] = text.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const missing = 8 - left.length - right.length;
  return [...left, ...Array<string>(Math.max(missing, 0)).fill("0"), ...right].map((group) => group.toLowerCase().replace(/^0+(?=.)/, ""));
}

/**
 * The header scripts/serve.mjs sets to the socket's peer address on every request, replacing
 * whatever a client sent under that name: unlike X-Forwarded-For, no proxy or client adds to it.
 */
export const PEER_HEADER = "x-lead-intake-peer";

/**
 * True when the request's socket came from this machine's loopback address (exactly
 * 127.0.0.1, its IPv4-mapped form, or ::1), read from PEER_HEADER alone: never from
 * X-Forwarded-For, whatever TRUST_PROXY_HOPS says. False under a server that does not set it.
 */
export function fromLoopbackSocket(headers: Pick<Headers, "get">): boolean {
  const peer = headers.get(PEER_HEADER);
  return peer === "127.0.0.1" || peer === "::ffff:127.0.0.1" || peer === "::1";
}

const clipped = (value: string | null) => (value ? value.slice(0, 512) : null);

export function requestContext(request: Request): RequestContext {
  const { headers } = request;
  return {
    requestId: requestIdFrom(headers),
    ip: clientIp(headers),
    userAgent: clipped(headers.get("user-agent")),
    referrer: clipped(headers.get("referer")),
  };
}
