import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { isPrivateAddress, mappedIpv4, resolveTarget } from "./target-address";

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
