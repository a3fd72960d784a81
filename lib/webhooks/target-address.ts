import { lookup } from "node:dns/promises";
import net from "node:net";

// The SSRF guard of webhook deliveries (docs/webhooks.md "Private addresses"). The URL's
// host is resolved when a delivery is made, every address it resolves to is checked, and
// the request then connects to the checked address itself (never resolving again), so a
// name that changes its answer between check and connect (DNS rebinding) cannot steer a
// delivery to an internal service.

const blocked = new net.BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this" network
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata services)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 96], // unspecified, loopback, IPv4-compatible
  ["64:ff9b::", 96], // NAT64: an IPv4 address behind a translator
  ["100::", 64], // discard
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

/** The eight 16-bit groups of an IPv6 address (which may end in dotted IPv4). */
function ipv6Groups(address: string): number[] {
  let text = address.split("%")[0]!.toLowerCase();
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split(".").map(Number) as [number, number, number, number];
    text = text.slice(0, -dotted[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const middle = tail === undefined ? [] : Array(8 - left.length - right.length).fill("0");
  return [...left, ...middle, ...right].map((group) => parseInt(group, 16));
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:a.b.c.d), else null. */
export function mappedIpv4(address: string): string | null {
  const groups = ipv6Groups(address);
  if (groups.length !== 8 || groups.slice(0, 5).some((g) => g !== 0) || groups[5] !== 0xffff) return null;
  return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
}

/** True for private, loopback, link-local, unique-local, multicast and reserved addresses. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family !== 6) return true;
  const inner = mappedIpv4(address);
  return inner ? blocked.check(inner, "ipv4") : blocked.check(address.split("%")[0]!, "ipv6");
}

export class TargetRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TargetRefused";
  }
}

export type ResolvedTarget = { address: string; family: 4 | 6 };

/**
 * The address to connect to for `hostname` (a name or an IP literal, IPv6 with or without
 * brackets). Refuses when any address it resolves to is private, unless `allowPrivate`.
 */
export async function resolveTarget(hostname: string, options: { allowPrivate: boolean }): Promise<ResolvedTarget> {
  const host = hostname.replace(/^\[|\]$/g, "");
  let addresses: { address: string; family: number }[];
  try {
    addresses = await lookup(host, { all: true, verbatim: true });
  } catch {
    throw new TargetRefused(`The host ${host} could not be resolved.`);
  }
  if (!addresses.length) throw new TargetRefused(`The host ${host} has no address.`);
  if (!options.allowPrivate) {
    const refused = addresses.find((entry) => isPrivateAddress(entry.address));
    if (refused) {
      throw new TargetRefused(
        `Refused: ${host} resolves to ${refused.address}, a private or reserved address (WEBHOOK_ALLOW_PRIVATE_TARGETS is off).`,
      );
    }
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
