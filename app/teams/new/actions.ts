"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { webActor } from "@/lib/audit/audit-log";
import { currentUser } from "@/lib/auth/session";
import { FOREIGN_REQUEST_MESSAGE, originProblem } from "@/lib/http/same-origin";
import { createOwnedTeam, TEAM_NAME_MAX } from "@/lib/teams/team-changes";

export type NewTeamState = { ok: false; error: string } | null;

const nameSchema = z
  .string()
  .trim()
  .min(1, "Give the team a name.")
  .max(TEAM_NAME_MAX, `A team name has at most ${TEAM_NAME_MAX} characters.`);

/** Any signed-in user creates a team and becomes its owner; the team opens on its General tab. */
export async function createTeamAction(_previous: NewTeamState, form: FormData): Promise<NewTeamState> {
  const list = await headers();
  if (originProblem(list)) return { ok: false, error: FOREIGN_REQUEST_MESSAGE };
  const user = await currentUser();
  if (!user) return { ok: false, error: "Your session has ended; sign in again." };
  const parsed = nameSchema.safeParse(form.get("name") ?? "");
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]!.message };
  const team = await createOwnedTeam({ name: parsed.data, ownerUserId: user.id, actor: webActor(user.id, list) });
  redirect(`/t/${team.slug}/settings/general`);
}
