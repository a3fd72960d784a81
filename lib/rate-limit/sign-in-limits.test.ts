import assert from "node:assert/strict";
import { test } from "node:test";

// Each test file runs in its own process: the limits are set before env() first reads them.
process.env.SIGN_IN_FAILURES_PER_EMAIL_AND_IP = "2";
process.env.SIGN_IN_FAILURES_PER_IP = "4";
delete process.env.REDIS_URL;
const { assertSignInAllowed, clearSignInFailures, recordSignInFailure } = await import("./sign-in-limits");

const THROTTLED = /^SignInThrottled:(\d+)$/;

async function throttledFor(email: string, ip: string): Promise<number | null> {
  try {
    await assertSignInAllowed(email, ip);
    return null;
  } catch (error) {
    const match = THROTTLED.exec((error as Error).message);
    assert.ok(match, `unexpected error ${(error as Error).message}`);
    return Number(match[1]);
  }
}

test("an email is refused from an address once it failed there SIGN_IN_FAILURES_PER_EMAIL_AND_IP times", async () => {
  const ip = "192.0.2.1";
  await recordSignInFailure("Ada@Example.com", ip);
  assert.equal(await throttledFor("ada@example.com", ip), null);
  await recordSignInFailure("ada@example.com", ip);
  const seconds = await throttledFor("ADA@example.com", ip);
  assert.ok(seconds !== null && seconds > 0 && seconds <= 900, `retry in ${seconds} s`);
  // The same email from elsewhere, and another email from here, are not held up.
  assert.equal(await throttledFor("ada@example.com", "192.0.2.2"), null);
  assert.equal(await throttledFor("grace@example.com", ip), null);
});

test("a successful sign-in clears its pair's failures", async () => {
  const ip = "192.0.2.10";
  await recordSignInFailure("linus@example.com", ip);
  await clearSignInFailures("linus@example.com", ip);
  await recordSignInFailure("linus@example.com", ip);
  assert.equal(await throttledFor("linus@example.com", ip), null);
});

test("an address is refused for every email once it failed SIGN_IN_FAILURES_PER_IP times", async () => {
  const ip = "192.0.2.20";
  for (const email of ["a@example.com", "b@example.com", "c@example.com"]) await recordSignInFailure(email, ip);
  assert.equal(await throttledFor("d@example.com", ip), null);
  await recordSignInFailure("d@example.com", ip);
  assert.notEqual(await throttledFor("e@example.com", ip), null);
  // A cleared pair does not reopen the address.
  await clearSignInFailures("a@example.com", ip);
  assert.notEqual(await throttledFor("a@example.com", ip), null);
});
