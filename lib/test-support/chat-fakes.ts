import http from "node:http";
import type { AddressInfo } from "node:net";
import type { ChatPlatform } from "../chat/chat-platforms";
import { chatBodyProblems, prepareChatBodyChecks } from "./chat-body-checks";

// Local stand-ins for each chat platform's incoming webhook, for tests (docs/notifications.md
// "Testing"): a POST to the platform's path shape, its body checked against the platform's
// documented shape and limits (chat-body-checks.ts; Teams' card against the Adaptive Card
// schema). Each answers as its platform does: Slack 200 "ok", Teams' Workflows 202, Discord
// 204, Google Chat 200 with the message, a Slack-compatible server 200; a body the platform
// would refuse gets 400 with the problems. A test queues other answers: a 429 with
// Retry-After (Discord's also with its JSON `retry_after`), a 5xx, or a 404 (the webhook was
// deleted). Every request is recorded, its body parsed.

export type FakeAnswer = { status: number; retryAfterSeconds?: number };

export type ChatFake = {
  platform: ChatPlatform;
  /** An incoming-webhook URL of the platform's shape at this server; its secret part is `secret`. */
  url: string;
  secret: string;
  received: { at: Date; body: unknown; problems: string[]; status: number }[];
  /** Answers for the next requests, in order (after them: the platform's success). */
  answers: FakeAnswer[];
  close: () => Promise<void>;
};

const PATHS: Record<ChatPlatform, (secret: string) => string> = {
  slack: (secret) => `/services/T0FAKE/B0FAKE/${secret}`,
  discord: (secret) => `/api/webhooks/123456789012345678/${secret}`,
  teams: (secret) =>
    `/workflows/fake0123/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${secret}`,
  "google-chat": (secret) => `/v1/spaces/AAAAfake/messages?key=fake-key&token=${secret}`,
  "slack-compatible": (secret) => `/hooks/${secret}`,
};

function success(platform: ChatPlatform, res: http.ServerResponse, body: unknown): number {
  switch (platform) {
    case "slack":
    case "slack-compatible":
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
      return 200;
    case "teams":
      res.writeHead(202).end();
      return 202;
    case "discord":
      res.writeHead(204).end();
      return 204;
    case "google-chat":
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ name: "spaces/AAAAfake/messages/1", ...(body as object) }));
      return 200;
  }
}

function refuse(platform: ChatPlatform, res: http.ServerResponse, answer: FakeAnswer): void {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (answer.retryAfterSeconds !== undefined) headers["retry-after"] = String(answer.retryAfterSeconds);
  const body =
    answer.status === 429 && platform === "discord"
      ? { message: "You are being rate limited.", retry_after: answer.retryAfterSeconds ?? 1, global: false }
      : answer.status === 404
        ? { message: platform === "discord" ? "Unknown Webhook" : "no_service" }
        : { error: `HTTP ${answer.status}` };
  res.writeHead(answer.status, headers).end(JSON.stringify(body));
}

export async function startChatFake(
  platform: ChatPlatform,
  secret = `fakesecret${platform.replace("-", "")}0123456789`,
): Promise<ChatFake> {
  const path = PATHS[platform](secret);
  prepareChatBodyChecks(platform);
  const fake: ChatFake = { platform, url: "", secret, received: [], answers: [], close: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== path) {
        res.writeHead(404, { "content-type": "text/plain" }).end("no_service");
        return;
      }
      let body: unknown = null;
      let problems: string[];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        problems = req.headers["content-type"] === "application/json" ? chatBodyProblems(platform, body) : ["not application/json"];
      } catch {
        problems = ["not JSON"];
      }
      const answer = fake.answers.shift();
      let status: number;
      if (problems.length) {
        status = 400;
        res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: "invalid_payload", problems }));
      } else if (answer) {
        status = answer.status;
        refuse(platform, res, answer);
      } else status = success(platform, res, body);
      fake.received.push({ at: new Date(), body, problems, status });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}
