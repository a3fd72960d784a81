import { db } from "../db/client";

// A member's own user ids in the team's chat (Your account → Chat mentions): an assignment
// posted to a Slack or Discord destination mentions them by it (docs/notifications.md).

export type ChatIds = { slackUserId: string | null; discordUserId: string | null };

export async function readChatIds(userId: string): Promise<ChatIds> {
  const row = await db().user.findUnique({ where: { id: userId }, select: { slackUserId: true, discordUserId: true } });
  return { slackUserId: row?.slackUserId ?? null, discordUserId: row?.discordUserId ?? null };
}

/** False when the user no longer exists. */
export async function writeChatIds(userId: string, ids: ChatIds): Promise<boolean> {
  const { count } = await db().user.updateMany({ where: { id: userId }, data: ids });
  return count === 1;
}
