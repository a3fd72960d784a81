import { hkdfSync } from "node:crypto";
import { createChallenge, randomInt, verifySolution, type Challenge, type Solution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { encryptionKey } from "../api-keys/secret-box";
import { db } from "../db/client";
import { env } from "../env";
import { ApiError } from "../http/api-error";

// The web forms' proof-of-work (ALTCHA, self-hosted: altcha-lib here, the altcha widget
// in the visitor's browser). A challenge is signed with a key derived from this
// deployment's encryption key (so every instance verifies every other's), names its form,
// and expires after FORM_CHALLENGE_TTL_SECONDS. A solution is accepted once: its
// challenge's nonce is written to SpentChallenge in the lead's transaction, so a 422 does
// not spend it and two submits of one solution cannot both store a lead.

const ALGORITHM = "PBKDF2/SHA-256";
// The browser tries counters from 0 up to the secret one, picked in this range per challenge.
const COUNTER_MIN = 1_000;
const COUNTER_MAX = 5_000;

export const CHALLENGE_FIELD = "altcha";

let keys: { signature: string; keySignature: string } | undefined;

function signingKeys() {
  if (keys) return keys;
  const derive = (purpose: string) =>
    Buffer.from(hkdfSync("sha256", encryptionKey(), Buffer.alloc(0), `lead-intake web form ${purpose}`, 32)).toString("hex");
  return (keys = { signature: derive("challenge signature"), keySignature: derive("key signature") });
}

/** A new challenge for the form; `now` is the clock (tests create expired ones). */
export async function formChallenge(formId: string, now = new Date()): Promise<Challenge> {
  const { FORM_CHALLENGE_COST, FORM_CHALLENGE_TTL_SECONDS } = env();
  const { signature, keySignature } = signingKeys();
  return createChallenge({
    algorithm: ALGORITHM,
    cost: FORM_CHALLENGE_COST,
    counter: randomInt(COUNTER_MAX, COUNTER_MIN),
    deriveKey,
    data: { form: formId },
    expiresAt: new Date(now.getTime() + FORM_CHALLENGE_TTL_SECONDS * 1000),
    hmacSignatureSecret: signature,
    hmacKeySignatureSecret: keySignature,
  });
}

/** A verified solution: the challenge it spends, and until when it must stay spent. */
export type VerifiedSolution = { nonce: string; expiresAt: Date };

const refused = (error: string) => new ApiError(403, error, "Forbidden");

export const CHALLENGE_ERRORS = {
  missing: "Spam check missing: this form needs JavaScript to complete its spam check",
  invalid: "Spam check failed",
  expired: "Spam check expired; submit the form again",
  replayed: "Spam check already used; submit the form again",
} as const;

function decode(payload: string): { challenge: Challenge; solution: Solution } | null {
  try {
    const parsed = JSON.parse(Buffer.from(payload, "base64").toString("utf8")) as unknown;
    if (!parsed || typeof parsed !== "object") return null;
    const { challenge, solution } = parsed as { challenge?: Challenge; solution?: Solution };
    if (!challenge?.parameters || typeof challenge.parameters !== "object" || !solution || typeof solution !== "object") return null;
    return { challenge, solution };
  } catch {
    return null;
  }
}

/**
 * Checks the widget's payload (base64 JSON of the challenge and its solution) for this
 * form; throws 403 with what went wrong. Does not spend it: see spendSolution.
 */
export async function verifyFormSolution(payload: string | null, formId: string): Promise<VerifiedSolution> {
  if (!payload) throw refused(CHALLENGE_ERRORS.missing);
  const decoded = payload.length <= 10_000 ? decode(payload) : null;
  if (!decoded || decoded.challenge.parameters.data?.form !== formId) throw refused(CHALLENGE_ERRORS.invalid);
  const { signature, keySignature } = signingKeys();
  let result: Awaited<ReturnType<typeof verifySolution>>;
  try {
    result = await verifySolution({
      challenge: decoded.challenge,
      solution: decoded.solution,
      deriveKey,
      hmacSignatureSecret: signature,
      hmacKeySignatureSecret: keySignature,
    });
  } catch {
    throw refused(CHALLENGE_ERRORS.invalid);
  }
  if (result.expired) throw refused(CHALLENGE_ERRORS.expired);
  if (!result.verified) throw refused(CHALLENGE_ERRORS.invalid);
  const { nonce, expiresAt } = decoded.challenge.parameters;
  const spent = await db().spentChallenge.findUnique({ where: { id: nonce }, select: { id: true } });
  if (spent) throw refused(CHALLENGE_ERRORS.replayed);
  return { nonce, expiresAt: new Date((expiresAt ?? 0) * 1000) };
}

const PRUNE_EVERY = 200;
let spentSincePrune = 0;

/**
 * The solution as the lead's transaction spends it (lib/leads/lead-writer.ts): a second
 * use rolls the lead back with 403. Every PRUNE_EVERY spends, expired ones are forgotten.
 */
export function spendableSolution(solution: VerifiedSolution): { id: string; expiresAt: Date; replayed: () => Error } {
  if (++spentSincePrune >= PRUNE_EVERY) {
    spentSincePrune = 0;
    pruneSpentChallenges().catch(() => undefined);
  }
  return { id: solution.nonce, expiresAt: solution.expiresAt, replayed: () => refused(CHALLENGE_ERRORS.replayed) };
}

/** Forgets spent challenges that have expired (an expired one is refused anyway). */
export async function pruneSpentChallenges(now = new Date()): Promise<number> {
  const { count } = await db().spentChallenge.deleteMany({ where: { expiresAt: { lt: now } } });
  return count;
}
