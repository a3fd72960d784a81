import assert from "node:assert/strict";
import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { CLI_ACTOR } from "../audit/audit-log";
import { db } from "../db/client";
import { answerFormPost } from "../intake/web-form-endpoint";
import { createTeam } from "../teams/team-store";
import { formChallenge } from "./challenge";
import * as changes from "./web-form-changes";
import * as formStore from "./web-form-store";

// Shared setup of the web form tests (web-form-*.test.ts): teams with a form, challenges
// solved as the widget solves them, and posts to the form's endpoint from an allowed origin
// and a fresh address. Not a test file itself: each test file sets its environment, calls
// useTestDatabase(), then imports this with `await import(…)`, like its own lib modules.

export const store = { ...formStore, ...changes };

export const SITE = "https://www.example.com";
let teams = 0;
/** The number of the next team's slug (forms-1, forms-2, …). */
export const nextTeam = () => ++teams;
let addresses = 0;
export const nextIp = () => `203.0.113.${++addresses % 250}`;

export async function newForm(settings: Partial<Parameters<typeof store.createWebForm>[0]["settings"]> = {}) {
  const team = await createTeam({ slug: `forms-${nextTeam()}`, name: `Forms ${teams}` });
  const formId = await store.createWebForm({
    teamId: team.id,
    settings: { name: "Contact", allowedOrigins: [SITE], sourceId: null, successUrl: null, challenge: true, ...settings },
    createdById: null,
    actor: CLI_ACTOR,
  });
  return { team, formId };
}

/** A solved challenge of the form, as the widget puts it in the `altcha` field. */
export async function solved(formId: string, now?: Date): Promise<string> {
  const challenge = await formChallenge(formId, now);
  const solution = await solveChallenge({ challenge, deriveKey });
  assert.ok(solution, "the challenge is solvable");
  return Buffer.from(JSON.stringify({ challenge, solution })).toString("base64");
}

export function post(
  formId: string,
  fields: Record<string, string>,
  options: { origin?: string | null; json?: boolean; ip?: string; referer?: string; userAgent?: string } = {},
) {
  const headers: Record<string, string> = { "x-forwarded-for": options.ip ?? nextIp() };
  if (options.userAgent) headers["user-agent"] = options.userAgent;
  if (options.origin !== null) headers.origin = options.origin ?? SITE;
  if (options.referer) headers.referer = options.referer;
  if (options.json !== false) headers.accept = "application/json";
  return answerFormPost(
    new Request(`http://127.0.0.1/api/forms/${formId}`, { method: "POST", headers, body: new URLSearchParams(fields) }),
    formId,
  );
}

export const leadsOf = (teamId: string) => db().lead.findMany({ where: { teamId }, include: { source: true } });
