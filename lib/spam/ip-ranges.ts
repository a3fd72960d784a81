// The team's blocked IP ranges (issue 42 check 5), in CIDR for IPv4 and IPv6. An
// IPv4-mapped IPv6 address (::ffff:203.0.113.7, what a dual-stack socket reports) is the
// IPv4 address, on either side: in a range and as the sender.
import ipaddr from "ipaddr.js";

type Address = ipaddr.IPv4 | ipaddr.IPv6;
export type IpRange = [Address, number];

const MAPPED_PREFIX = 96;

/** One CIDR range, or a single address; null for what is neither (ignored, never thrown). */
export function parseIpRange(entry: string): IpRange | null {
  const text = entry.trim();
  try {
    const [address, bits] = text.includes("/") ? ipaddr.parseCIDR(text) : [ipaddr.parse(text), -1];
    const prefix = bits < 0 ? (address.kind() === "ipv4" ? 32 : 128) : bits;
    if (address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress() && prefix >= MAPPED_PREFIX) {
      return [address.toIPv4Address(), prefix - MAPPED_PREFIX];
    }
    return [address, prefix];
  } catch {
    return null;
  }
}

/**
 * The sender's address, IPv4-mapped IPv6 read as IPv4; null when it is no address. The
 * request context knows an IPv6 client by its /64 ("2001:db8:1:2::/64",
 * lib/http/request-context.ts): that is read as the block's first address.
 */
export function parseSender(ip: string): Address | null {
  try {
    const text = ip.trim();
    return text.includes("/") ? ipaddr.parseCIDR(text)[0] : ipaddr.process(text);
  } catch {
    return null;
  }
}

const INTERNAL = new Set(["unspecified", "loopback", "private", "linkLocal", "uniqueLocal", "carrierGradeNat"]);

/** A loopback, private or link-local address: a proxy's or the machine's own, never a visitor's. */
export function isInternalAddress(ip: string): boolean {
  const sender = parseSender(ip);
  return sender === null || INTERNAL.has(sender.range());
}

export function inRanges(sender: Address, ranges: readonly IpRange[]): boolean {
  return ranges.some(([address, prefix]) => address.kind() === sender.kind() && sender.match(address, prefix));
}
