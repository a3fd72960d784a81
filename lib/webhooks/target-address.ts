import { lookup } from "node:dns/promises";
import net from "node:net";

// The SSRF guard of webhook deliveries (docs/webhooks.md "Private addresses"). The URL's
// host is resolved when a delivery is made, every address it resolves to is checked, and
// the request then connects to the checked address itself (never resolving again), so a
// name that changes its answer between check and connect (DNS rebinding) cannot steer a
// delivery to an internal service.
//
// Only global unicast addresses are allowed. The ranges come from the IANA IPv4 and IPv6
// Special-Purpose Address Registries; a range the registry marks globally reachable (e.g.
// the AS112 and AMT anycast networks) is allowed, or, where it lies inside a larger range
// that is not (the anycast addresses in 192.0.0.0/24 and 2001::/23), refused with it. An
// IPv6 address that carries an IPv4 address a translator or relay would forward to
// (IPv4-mapped, NAT64, 6to4) is judged by that IPv4 address.

/** IPv4 networks that are not globally reachable unicast. */
const blockedIpv4 = new net.BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this" network (RFC 791, RFC 1122)
  ["10.0.0.0", 8], // private (RFC 1918)
  ["100.64.0.0", 10], // shared address space, carrier-grade NAT (RFC 6598)
  ["127.0.0.0", 8], // loopback (RFC 1122)
  ["169.254.0.0", 16], // link-local, cloud metadata services (RFC 3927)
  ["172.16.0.0", 12], // private (RFC 1918)
  ["192.0.0.0", 24], // IETF protocol assignments: DS-Lite, NAT64 discovery, … (RFC 6890)
  ["192.0.2.0", 24], // documentation TEST-NET-1 (RFC 5737)
  ["192.88.99.0", 24], // 6to4 relay anycast, deprecated (RFC 7526), and 6a44 relays (RFC 6751)
  ["192.168.0.0", 16], // private (RFC 1918)
  ["198.18.0.0", 15], // benchmarking (RFC 2544)
  ["198.51.100.0", 24], // documentation TEST-NET-2 (RFC 5737)
  ["203.0.113.0", 24], // documentation TEST-NET-3 (RFC 5737)
  ["224.0.0.0", 4], // multicast (RFC 5771)
  ["240.0.0.0", 4], // reserved (RFC 1112), incl. the limited broadcast 255.255.255.255/32 (RFC 919)
] as const) {
  blockedIpv4.addSubnet(network, prefix, "ipv4");
}

/** Global unicast (RFC 4291 §2.4): every IPv6 address outside it is refused. */
const globalUnicast = new net.BlockList();
globalUnicast.addSubnet("2000::", 3, "ipv6");

/** Networks inside 2000::/3 that are not globally reachable. */
const blockedIpv6 = new net.BlockList();
for (const [network, prefix] of [
  // IETF protocol assignments (RFC 2928): Teredo 2001::/32 (RFC 4380), benchmarking
  // 2001:2::/48 (RFC 5180), ORCHID (RFC 4843, 7343), and a few anycast addresses.
  // Teredo is refused outright rather than judged by the server and client IPv4 it carries.
  ["2001::", 23],
  ["2001:db8::", 32], // documentation (RFC 3849)
  ["3fff::", 20], // documentation (RFC 9637)
] as const) {
  blockedIpv6.addSubnet(network, prefix, "ipv6");
}

/** Dotted IPv4 from two 16-bit groups. */
function ipv4Of(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
}

/**
 * The eight 16-bit groups of an IPv6 address, or null when `address` is not one. Accepts
 * any case, a zone id (`fe80::1%eth0`, dropped) and a dotted IPv4 tail (`::ffff:1.2.3.4`).
 */
function ipv6Groups(address: string): number[] | null {
  let text = address.split("%")[0]!.toLowerCase();
  if (net.isIP(text) !== 6) return null;
  const dotted = text.match(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = text.slice(0, -dotted[0].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill("0");
  const groups = [...left, ...middle, ...right].map((group) => parseInt(group, 16));
  return groups.length === 8 && groups.every((group) => group >= 0 && group <= 0xffff) ? groups : null;
}

const isZero = (groups: number[]) => groups.every((group) => group === 0);

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:a.b.c.d), else null. */
export function mappedIpv4(address: string): string | null {
  const groups = ipv6Groups(address);
  if (!groups || !isZero(groups.slice(0, 5)) || groups[5] !== 0xffff) return null;
  return ipv4Of(groups[6]!, groups[7]!);
}

/**
 * The IPv4 address an IPv6 address stands for, which decides whether it is private:
 * IPv4-mapped ::ffff:0:0/96 (RFC 4291) and well-known NAT64 64:ff9b::/96 (RFC 6052) carry it
 * in the last 32 bits, 6to4 2002::/16 (RFC 3056) in bits 16–47. Else null.
 */
export function embeddedIpv4(address: string): string | null {
  const groups = ipv6Groups(address);
  if (!groups) return null;
  const [g0, g1, g2, , , g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  if (isZero(groups.slice(0, 5)) && g5 === 0xffff) return ipv4Of(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && isZero(groups.slice(2, 6))) return ipv4Of(g6, g7);
  if (g0 === 0x2002) return ipv4Of(g1, g2);
  return null;
}

/**
 * True for every address that is not global unicast: private, loopback, link-local,
 * unique-local, multicast, documentation, benchmarking, reserved, and IPv6 forms that carry
 * such an IPv4 address. Outside 2000::/3 this includes ::/8 (unspecified, loopback,
 * IPv4-compatible, and SIIT's IPv4-translated ::ffff:0:0:0/96, RFC 6145/7915), local-use
 * NAT64 64:ff9b:1::/48 (RFC 8215, its translator is the operator's own), discard 100::/64
 * (RFC 6666), SRv6 SIDs 5f00::/16 (RFC 9602), fc00::/7, fe80::/10, fec0::/10 and ff00::/8.
 * Anything that is not an IP address is refused too.
 */
export function isPrivateAddress(address: string): boolean {
  if (net.isIPv4(address)) return blockedIpv4.check(address, "ipv4");
  const groups = ipv6Groups(address);
  if (!groups) return true;
  const inner = embeddedIpv4(address);
  if (inner) return blockedIpv4.check(inner, "ipv4");
  const canonical = groups.map((group) => group.toString(16)).join(":");
  return !globalUnicast.check(canonical, "ipv6") || blockedIpv6.check(canonical, "ipv6");
}

export class TargetRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TargetRefused";
  }
}

export type ResolvedTarget = { address: string; family: 4 | 6 };

type Lookup = (host: string) => Promise<{ address: string; family: number }[]>;
const systemLookup: Lookup = (host) => lookup(host, { all: true, verbatim: true });

/**
 * The address to connect to for `hostname` (a name or an IP literal, IPv6 with or without
 * brackets). Refuses when any address it resolves to is private, unless `allowPrivate`.
 * `lookup` replaces the system resolver (tests).
 */
export async function resolveTarget(hostname: string, options: { allowPrivate: boolean; lookup?: Lookup }): Promise<ResolvedTarget> {
  const host = hostname.replace(/^\[|\]$/g, "");
  let addresses: { address: string; family: number }[];
  try {
    addresses = await (options.lookup ?? systemLookup)(host);
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
