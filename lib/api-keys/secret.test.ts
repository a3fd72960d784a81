import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  DIGEST_ALGORITHM,
  SECRET_PREFIX,
  digestSecret,
  generateKeyId,
  generateSecret,
  maskSecret,
  secretMatches,
  secretPrefix,
} from "./secret";

const MANY = 5_000;

describe("generateSecret", () => {
  test("is team_ followed by at least 32 base62 characters", () => {
    for (let i = 0; i < 200; i++) assert.match(generateSecret(), /^team_[0-9A-Za-z]{32,}$/);
    assert.equal(SECRET_PREFIX, "team_");
  });

  test(`${MANY} secrets are all different`, () => {
    const secrets = new Set(Array.from({ length: MANY }, generateSecret));
    assert.equal(secrets.size, MANY);
  });

  test("has no modulo bias: the first eight base62 digits are not favoured", () => {
    // 256 % 62 = 8: a plain `byte % 62` would make "0"–"7" 25% more likely than the rest.
    const counts = new Map<string, number>();
    for (let i = 0; i < MANY; i++) {
      for (const char of generateSecret().slice(SECRET_PREFIX.length)) counts.set(char, (counts.get(char) ?? 0) + 1);
    }
    const mean = (chars: string[]) => chars.reduce((sum, c) => sum + (counts.get(c) ?? 0), 0) / chars.length;
    const favoured = [..."01234567"];
    const rest = [...counts.keys()].filter((c) => !favoured.includes(c));
    const ratio = mean(favoured) / mean(rest);
    assert.ok(ratio > 0.9 && ratio < 1.1, `frequency ratio ${ratio.toFixed(3)}`);
  });

  test("draws from the whole base62 alphabet", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) for (const char of generateSecret().slice(SECRET_PREFIX.length)) seen.add(char);
    assert.equal(seen.size, 62);
  });
});

describe("generateKeyId", () => {
  test("is 20 lowercase hex characters", () => {
    for (let i = 0; i < 200; i++) assert.match(generateKeyId(), /^[0-9a-f]{20}$/);
  });

  test(`${MANY} key ids are all different`, () => {
    assert.equal(new Set(Array.from({ length: MANY }, generateKeyId)).size, MANY);
  });
});

describe("digestSecret and secretMatches", () => {
  test("the digest is SHA-256 in hex", () => {
    assert.equal(DIGEST_ALGORITHM, "sha256");
    assert.equal(digestSecret("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  test("the digest never contains the secret", () => {
    const secret = generateSecret();
    assert.ok(!digestSecret(secret).includes(secret.slice(SECRET_PREFIX.length, SECRET_PREFIX.length + 8)));
  });

  const secret = generateSecret();
  const digest = digestSecret(secret);
  const cases: [title: string, presented: string, stored: string | null, expected: boolean][] = [
    ["the right secret", secret, digest, true],
    ["a different secret", generateSecret(), digest, false],
    ["the secret with its last character changed", secret.slice(0, -1) + (secret.endsWith("a") ? "b" : "a"), digest, false],
    ["the secret in another case", secret.toUpperCase(), digest, false],
    ["the secret with a trailing space", `${secret} `, digest, false],
    ["an empty secret", "", digest, false],
    ["the digest itself", digest, digest, false],
    ["a null digest (unknown key)", secret, null, false],
    ["a null digest and the internal dummy secret", "team_not-a-real-secret", null, false],
    ["a corrupted, shorter stored digest", secret, digest.slice(0, 32), false],
    ["an empty stored digest", secret, "", false],
  ];
  for (const [title, presented, stored, expected] of cases) {
    test(`${title} → ${expected}`, () => assert.equal(secretMatches(presented, stored), expected));
  }
});

describe("maskSecret and secretPrefix", () => {
  test("secretPrefix is the eight characters after team_", () => {
    assert.equal(secretPrefix("team_ABCDEFGHijklmnop"), "ABCDEFGH");
  });

  test("the masked form is team_ + eight characters + asterisks, as long as the secret", () => {
    const secret = generateSecret();
    const masked = maskSecret(secretPrefix(secret));
    assert.equal(masked, `team_${secret.slice(5, 13)}${"*".repeat(secret.length - 13)}`);
    assert.match(masked, /^team_[0-9A-Za-z]{8}\*+$/);
    assert.equal(masked.length, secret.length);
    assert.ok(!masked.includes(secret.slice(13, 21)), "the masked form must not reveal more than eight characters");
  });
});
