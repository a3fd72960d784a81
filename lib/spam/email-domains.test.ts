import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { emailDomain, isDisposableDomain, isFreeMailDomain } from "./email-domains";

describe("emailDomain", () => {
  const cases: [string, string | null][] = [
    ["anna@Example.COM", "example.com"],
    ["anna@example.com.", "example.com"],
    ["anna@example.com..", "example.com"],
    ['"a@b"@example.org', "example.org"],
    ["anna@bücher.de", "xn--bcher-kva.de"],
    ["no-at-sign", null],
    ["anna@", null],
  ];
  for (const [address, domain] of cases) test(`${address} → ${domain}`, () => assert.equal(emailDomain(address), domain));
});

describe("disposable and free-mail domains (issue 42 check 2)", () => {
  test("a disposable domain, its subdomains, in any case and with a trailing dot", () => {
    for (const address of ["x@mailinator.com", "x@MAILINATOR.com", "x@mailinator.com.", "x@eu.mailinator.com", "x@yopmail.com"]) {
      assert.equal(isDisposableDomain(emailDomain(address)!), true, address);
    }
  });

  test("ordinary domains are not disposable", () => {
    for (const domain of ["gmail.com", "acme.de", "example.co.uk", "com"]) assert.equal(isDisposableDomain(domain), false, domain);
  });

  test("free-mail domains, subdomains included", () => {
    for (const domain of ["gmail.com", "yahoo.co.jp", "mail.ru", "qq.com", "web.de", "naver.com", "sub.gmail.com"]) {
      assert.equal(isFreeMailDomain(domain), true, domain);
    }
    assert.equal(isFreeMailDomain("acme.de"), false);
  });

  test("the free-mail list holds no disposable domain (email-providers lists mailinator; the disposable list wins)", () => {
    for (const domain of ["mailinator.com", "10minutemail.com", "guerrillamail.com", "yopmail.com"]) {
      assert.equal(isDisposableDomain(domain), true, domain);
      assert.equal(isFreeMailDomain(domain), false, domain);
    }
  });
});
