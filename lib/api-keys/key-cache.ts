import { findKeyForAuth, findKeyVersions, type KeyForAuth, type KeyVersions } from "./key-lookup-store";

// The per-process API key cache (issue 47; docs/security.md "The key cache"): the keys that
// authenticated lately, each with the versions of the key's and its team's rows it was read
// at. A cached key is used only after one small statement has read those versions again
// (findKeyVersions) and found them unchanged; any write that changes what authentication
// reads bumps one of them in the same transaction (database triggers, migration
// 20261205000301_key_cache_versions), and a deleted key or team has no row to read. So a
// request that starts after a deletion, expiry change or team change has committed is
// answered from the database's current rows, on every instance, as without the cache.
//
// What is kept is the key's row as the database has it (its secret's digest, never a secret
// or a presented value); every request's secret is checked against it (secretMatches), so a
// different secret is checked as without the cache. Only keys that authenticated are added,
// so unknown ids and wrong secrets never enter it, and it holds at most `capacity` keys,
// the least recently used leaving first.

const DEFAULT_CAPACITY = 10_000;

let capacity = DEFAULT_CAPACITY;
/** Insertion order is recency order: a hit moves its key to the end, the first key leaves first. */
const entries = new Map<string, KeyForAuth>();

const sameVersions = (a: KeyVersions, b: KeyVersions) => a.key === b.key && a.team === b.team;

/** The key with its team as the database has it now: from the cache when its versions are unchanged, else read. */
export async function keyForAuth(keyId: string): Promise<KeyForAuth | null> {
  const cached = entries.get(keyId);
  if (cached) {
    const versions = await findKeyVersions(keyId);
    // A concurrent request may have replaced or dropped the entry meanwhile: only this one is judged.
    if (versions && sameVersions(versions, cached.versions)) {
      if (entries.get(keyId) === cached) {
        entries.delete(keyId);
        entries.set(keyId, cached);
      }
      return cached;
    }
    if (entries.get(keyId) === cached) entries.delete(keyId);
  }
  return findKeyForAuth(keyId);
}

/** Keeps a key that has just authenticated (read by keyForAuth at its versions). */
export function rememberKey(key: KeyForAuth): void {
  if (capacity === 0) return;
  entries.delete(key.id);
  entries.set(key.id, key);
  while (entries.size > capacity) entries.delete(entries.keys().next().value!);
}

/** How many keys are cached (tests). */
export function cachedKeyCount(): number {
  return entries.size;
}

/**
 * Sets how many keys the cache holds (0 turns it off) and empties it: the bench's A/B
 * (scripts/bench/alternating-ab.ts) and the tests; the app keeps the default.
 */
export function setKeyCacheCapacity(keys: number = DEFAULT_CAPACITY): void {
  capacity = keys;
  entries.clear();
}
