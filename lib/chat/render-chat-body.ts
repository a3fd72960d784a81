import type { ChatMessage } from "./chat-message";
import type { ChatPlatform } from "./chat-platforms";
import { discordBody } from "./discord-body";
import { googleChatBody } from "./google-chat-body";
import { slackBody } from "./slack-body";
import { slackCompatibleBody } from "./slack-compatible-body";
import { teamsBody } from "./teams-body";

/** The JSON body a platform's incoming webhook takes for `message`, rendered at `now` (how long the lead has waited). */
export function renderChatBody(platform: ChatPlatform, message: ChatMessage, now: Date): unknown {
  switch (platform) {
    case "slack":
      return slackBody(message, now);
    case "slack-compatible":
      return slackCompatibleBody(message, now);
    case "discord":
      return discordBody(message, now);
    case "teams":
      return teamsBody(message, now);
    case "google-chat":
      return googleChatBody(message, now);
  }
}
