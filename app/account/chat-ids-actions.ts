"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import type { ActionResult } from "@/lib/auth/require-team-role";
import { currentUser } from "@/lib/auth/session";
import { DISCORD_USER_ID, SLACK_USER_ID } from "@/lib/chat/chat-message";
import { FOREIGN_REQUEST_MESSAGE, originProblem } from "@/lib/http/same-origin";
import { writeChatIds } from "@/lib/users/chat-ids-store";

const SESSION_ENDED = "Your session has ended; sign in again.";

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
};

/** The signed-in user's Slack member id and Discord user id, each optional: assignments posted to chats mention them. */
export async function saveChatIdsAction(form: FormData): Promise<ActionResult> {
  if (originProblem(await headers())) return { ok: false, error: FOREIGN_REQUEST_MESSAGE };
  const user = await currentUser();
  if (!user) return { ok: false, error: SESSION_ENDED };
  const slack = text(form, "slackUserId");
  const discord = text(form, "discordUserId");
  if (slack && !SLACK_USER_ID.test(slack))
    return { ok: false, error: "A Slack member ID looks like U012AB3CD (Profile → ⋮ → Copy member ID)." };
  if (discord && !DISCORD_USER_ID.test(discord))
    return { ok: false, error: "A Discord user ID is 15 to 21 digits (Developer Mode, then Copy User ID)." };
  if (!(await writeChatIds(user.id, { slackUserId: slack || null, discordUserId: discord || null })))
    return { ok: false, error: SESSION_ENDED };
  revalidatePath("/account");
  return { ok: true };
}
