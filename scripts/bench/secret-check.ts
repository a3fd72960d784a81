import { digestSecret, generateSecret, secretMatches } from "../../lib/api-keys/secret";

/**
 * The secret check alone, as authenticate() runs it: SHA-256 of the presented secret
 * and a constant-time compare with the stored digest. Alternates hits and misses
 * (unknown key: the dummy digest) and counts checks per second on this one thread.
 */
export function secretChecksPerSecond(seconds: number): number {
  const secret = generateSecret();
  const digest = digestSecret(secret);
  const wrong = generateSecret();
  let ops = 0;
  let matched = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    for (let i = 0; i < 1000; i++) {
      if (secretMatches(secret, digest)) matched++;
      if (secretMatches(wrong, null)) matched++;
    }
    ops += 2000;
  }
  if (matched !== ops / 2) throw new Error("secretMatches gave a wrong answer during the benchmark");
  return ops / ((performance.now() - start) / 1000);
}
