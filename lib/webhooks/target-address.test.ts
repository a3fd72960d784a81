import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { embeddedIpv4, isPrivateAddress, mappedIpv4, resolveTarget } from "./target-address";
import { sendWebhook } from "./send-webhook";
import { checkEndpointUrl } from "./webhook-admin";

describe("the SSRF guard's address check", () => {
  const cases: [string, boolean][] = [
    ["127.0.0.1", true],
    ["10.1.2.3", true],
    ["172.16.0.1", true],
    ["172.31.255.255", true],
    ["192.168.1.1", true],
    ["169.254.169.254", true],
    ["100.64.0.1", true],
    ["0.0.0.0", true],
    ["224.0.0.1", true],
    ["255.255.255.255", true],
    ["::1", true],
    ["::", true],
    ["fe80::1", true],
    ["fd12:3456::1", true],
    ["ff02::1", true],
    ["::ffff:127.0.0.1", true],
    ["::ffff:7f00:1", true],
    ["::ffff:a9fe:a9fe", true],
    ["64:ff9b::a00:1", true],
    ["8.8.8.8", false],
    ["172.32.0.1", false],
    ["1.1.1.1", false],
    ["2606:4700:4700::1111", false],
    ["::ffff:8.8.8.8", false],
  ];
  for (const [address, refused] of cases) {
    test(`${address} is ${refused ? "refused" : "allowed"}`, () => assert.equal(isPrivateAddress(address), refused));
  }

  test("the IPv4 inside an IPv4-mapped address, in either notation", () => {
    assert.equal(mappedIpv4("::ffff:10.0.0.1"), "10.0.0.1");
    assert.equal(mappedIpv4("0:0:0:0:0:ffff:0a00:0001"), "10.0.0.1");
    assert.equal(mappedIpv4("2001:db8::1"), null);
  });

  test("resolution refuses a name that resolves to loopback, unless private targets are allowed", async () => {
    await assert.rejects(resolveTarget("localhost", { allowPrivate: false }), /private or reserved address/);
    await assert.rejects(resolveTarget("[::1]", { allowPrivate: false }), /private or reserved address/);
    const allowed = await resolveTarget("127.0.0.1", { allowPrivate: true });
    assert.deepEqual(allowed, { address: "127.0.0.1", family: 4 });
  });
});

// Security review 2 (issue 27), finding 6: IPv6 forms that carry an IPv4 address, and every
// range of the IANA IPv4 and IPv6 Special-Purpose Address Registries that is not globally
// reachable. Each row: a sample address, refused or allowed, and why.
describe("only global unicast addresses are allowed (IANA special-purpose registries)", () => {
  const review = ["64:ff9b:1::a9fe:a9fe", "2002:7f00:1::", "::ffff:0:7f00:1"];
  const table: [string, boolean, string][] = [
    // The review's addresses.
    ["64:ff9b:1::a9fe:a9fe", true, "local-use NAT64 64:ff9b:1::/48 (RFC 8215)"],
    ["2002:7f00:1::", true, "6to4 of 127.0.0.1 (RFC 3056)"],
    ["::ffff:0:7f00:1", true, "SIIT IPv4-translated ::ffff:0:0:0/96 (RFC 6145)"],
    // IPv4 registry.
    ["0.1.2.3", true, "this network 0.0.0.0/8"],
    ["10.255.255.255", true, "private 10.0.0.0/8"],
    ["100.127.255.254", true, "shared address space 100.64.0.0/10"],
    ["127.8.9.10", true, "loopback 127.0.0.0/8"],
    ["169.254.0.1", true, "link-local 169.254.0.0/16"],
    ["172.20.1.1", true, "private 172.16.0.0/12"],
    ["192.0.0.8", true, "IPv4 dummy address in 192.0.0.0/24"],
    ["192.0.0.170", true, "NAT64 discovery in 192.0.0.0/24"],
    ["192.0.2.1", true, "documentation 192.0.2.0/24"],
    ["192.88.99.1", true, "deprecated 6to4 relay anycast 192.88.99.0/24 (RFC 7526)"],
    ["192.88.99.2", true, "6a44 relay anycast (RFC 6751)"],
    ["192.168.255.1", true, "private 192.168.0.0/16"],
    ["198.19.0.1", true, "benchmarking 198.18.0.0/15"],
    ["198.51.100.7", true, "documentation 198.51.100.0/24"],
    ["203.0.113.9", true, "documentation 203.0.113.0/24"],
    ["239.255.255.250", true, "multicast 224.0.0.0/4"],
    ["240.0.0.1", true, "reserved 240.0.0.0/4"],
    ["255.255.255.255", true, "limited broadcast"],
    ["192.31.196.1", false, "AS112-v4, globally reachable"],
    ["192.175.48.1", false, "direct delegation AS112, globally reachable"],
    // IPv6 registry and the rest outside 2000::/3.
    ["::", true, "unspecified ::/128"],
    ["::1", true, "loopback ::1/128"],
    ["::a00:1", true, "IPv4-compatible ::/96 (deprecated)"],
    ["::808:808", true, "IPv4-compatible ::/96, even of a public IPv4"],
    ["::ffff:0:808:808", true, "SIIT, even of a public IPv4"],
    ["64:ff9b:1::808:808", true, "local-use NAT64, even of a public IPv4"],
    ["100::1", true, "discard-only 100::/64 (RFC 6666)"],
    ["100:0:0:1::1", true, "dummy IPv6 prefix 100:0:0:1::/64"],
    ["2001::1", true, "Teredo 2001::/32 (RFC 4380)"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", true, "Teredo with a public server"],
    ["2001:1::1", true, "PCP anycast in 2001::/23"],
    ["2001:2::1", true, "benchmarking 2001:2::/48"],
    ["2001:10::1", true, "ORCHID 2001:10::/28"],
    ["2001:1ff:ffff::1", true, "IETF protocol assignments 2001::/23"],
    ["2001:db8::1", true, "documentation 2001:db8::/32"],
    ["3fff::1", true, "documentation 3fff::/20 (RFC 9637)"],
    ["3fff:fff:ffff::1", true, "documentation 3fff::/20, upper end"],
    ["5f00::1", true, "SRv6 SIDs 5f00::/16 (RFC 9602)"],
    ["fc00::1", true, "unique local fc00::/7"],
    ["fdff:ffff::1", true, "unique local fc00::/7"],
    ["fe80::1", true, "link-local fe80::/10"],
    ["fe80::1%eth0", true, "link-local with a zone id"],
    ["FE80::ABCD", true, "link-local in upper case"],
    ["fec0::1", true, "site-local fec0::/10 (deprecated)"],
    ["ff02::1", true, "multicast ff00::/8"],
    ["ff0e::1", true, "global-scope multicast ff00::/8"],
    ["4000::1", true, "unassigned, outside 2000::/3"],
    ["e000::1", true, "unassigned, outside 2000::/3"],
    // Embedded IPv4, judged by the IPv4.
    ["64:ff9b::7f00:1", true, "NAT64 of 127.0.0.1"],
    ["64:ff9b::169.254.169.254", true, "NAT64 of the metadata service, dotted"],
    ["2002:a9fe:a9fe::1", true, "6to4 of 169.254.169.254"],
    ["2002:c058:6301::", true, "6to4 of the 6to4 relay anycast"],
    ["::ffff:192.88.99.1", true, "IPv4-mapped 6to4 relay anycast"],
    ["::FFFF:7F00:1", true, "IPv4-mapped loopback in upper case"],
    ["64:ff9b::808:808", false, "NAT64 of 8.8.8.8"],
    ["64:ff9b::8.8.8.8", false, "NAT64 of 8.8.8.8, dotted"],
    ["2002:808:808::1", false, "6to4 of 8.8.8.8"],
    ["::ffff:8.8.8.8", false, "IPv4-mapped 8.8.8.8"],
    // Ordinary global unicast.
    ["8.8.8.8", false, "public IPv4"],
    ["1.1.1.1", false, "public IPv4"],
    ["2606:4700:4700::1111", false, "public IPv6"],
    ["2a00:1450:4001:80b::200e", false, "public IPv6"],
    ["2001:200::1", false, "public IPv6 just past 2001::/23"],
    ["2001:db9::1", false, "public IPv6 just past 2001:db8::/32"],
    ["2620:4f:8000::1", false, "direct delegation AS112-v6, globally reachable"],
    ["3fff:1000::1", false, "just past 3fff::/20"],
    // Not addresses at all.
    ["", true, "empty"],
    ["example.com", true, "a name"],
    ["127.0.0.1%eth0", true, "IPv4 with a zone id"],
    ["0127.0.0.1", true, "octal-looking IPv4"],
  ];
  for (const [address, refused, why] of table) {
    test(`${address || "(empty)"} is ${refused ? "refused" : "allowed"}: ${why}`, () => assert.equal(isPrivateAddress(address), refused));
  }

  test("the IPv4 an IPv6 address stands for (mapped, NAT64, 6to4), else none", () => {
    assert.equal(embeddedIpv4("::ffff:10.0.0.1"), "10.0.0.1");
    assert.equal(embeddedIpv4("64:ff9b::a9fe:a9fe"), "169.254.169.254");
    assert.equal(embeddedIpv4("2002:7f00:1::"), "127.0.0.1");
    assert.equal(embeddedIpv4("2002:808:808:1:2:3:4:5"), "8.8.8.8");
    assert.equal(embeddedIpv4("64:ff9b:1::a9fe:a9fe"), null);
    assert.equal(embeddedIpv4("::ffff:0:7f00:1"), null);
    assert.equal(embeddedIpv4("2606:4700:4700::1111"), null);
  });

  const ipv4 = fc.tuple(...Array.from({ length: 4 }, () => fc.integer({ min: 0, max: 255 }))).map((bytes) => bytes.join("."));
  const hex = (address: string) => {
    const [a, b, c, d] = address.split(".").map(Number) as [number, number, number, number];
    return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
  };
  // Biased towards the refused IPv4 ranges, so both verdicts come up often.
  const special = fc.constantFrom("127.0.0.1", "10.0.0.1", "169.254.169.254", "192.88.99.1", "0.0.0.0", "255.255.255.255", "100.64.0.1");
  const anyIpv4 = fc.oneof(ipv4, special);

  test("an IPv4 address embedded as IPv4-mapped, NAT64 or 6to4 gets the IPv4 address's verdict", () => {
    fc.assert(
      fc.property(anyIpv4, (address) => {
        const [high, low] = hex(address);
        const verdict = isPrivateAddress(address);
        assert.equal(isPrivateAddress(`::ffff:${address}`), verdict);
        assert.equal(isPrivateAddress(`::ffff:${high}:${low}`), verdict);
        assert.equal(isPrivateAddress(`64:ff9b::${address}`), verdict);
        assert.equal(isPrivateAddress(`64:ff9b::${high}:${low}`), verdict);
        assert.equal(isPrivateAddress(`2002:${high}:${low}::1`), verdict);
        assert.equal(isPrivateAddress(`2002:${high}:${low}:ab:cd:ef:12:34`), verdict);
      }),
      { numRuns: 500 },
    );
  });

  test("an IPv4 address embedded as local-use NAT64, SIIT, IPv4-compatible or Teredo is refused whatever it is", () => {
    fc.assert(
      fc.property(anyIpv4, (address) => {
        const [high, low] = hex(address);
        for (const form of [`64:ff9b:1::${address}`, `::ffff:0:${address}`, `::${high}:${low}`, `2001:0:${high}:${low}::1`]) {
          assert.equal(isPrivateAddress(form), true, form);
        }
      }),
      { numRuns: 200 },
    );
  });

  test("the review's addresses are refused when the endpoint is saved, as bracketed URL hosts", () => {
    for (const address of review) {
      assert.deepEqual(checkEndpointUrl(`https://[${address}]/hooks`, false), {
        error: "The URL points to a private or local address, which webhooks may not reach.",
      });
    }
    assert.deepEqual(checkEndpointUrl("https://[2002:808:808::1]/hooks", false), { url: "https://[2002:808:808::1]/hooks" });
  });

  test("the review's addresses are refused at delivery, as URL hosts and as what a name resolves to", async () => {
    for (const address of review) {
      const sent = await sendWebhook({
        url: `https://[${address}]/hooks`,
        secrets: ["whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"],
        eventId: "msg_test",
        payload: "{}",
        allowPrivate: false,
      });
      assert.equal(sent.ok, false);
      assert.match(sent.error!, /^Refused: .* a private or reserved address/);
      await assert.rejects(resolveTarget(`[${address}]`, { allowPrivate: false }), /private or reserved address/);
      const lookup = async () => [
        { address: "93.184.215.14", family: 4 },
        { address, family: 6 },
      ];
      await assert.rejects(
        resolveTarget("hooks.example.com", { allowPrivate: false, lookup }),
        new RegExp(`resolves to ${address.replace(/\./g, "\\.")}, a private or reserved address`),
      );
    }
    const lookup = async () => [{ address: "64:ff9b::808:808", family: 6 }];
    assert.deepEqual(await resolveTarget("hooks.example.com", { allowPrivate: false, lookup }), {
      address: "64:ff9b::808:808",
      family: 6,
    });
  });
});
