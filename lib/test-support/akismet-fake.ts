import http from "node:http";
import type { AddressInfo } from "node:net";

// A local stand-in for Akismet's comment-check (https://akismet.com/developers/detailed-docs/comment-check/)
// for tests: POST /1.1/comment-check, form-encoded. It answers as Akismet does: "invalid" with
// an X-akismet-debug-help header for a wrong key or a missing required field (blog, user_ip),
// "true" when the content holds the marker, "false" otherwise; or, as the test sets, a 500, a
// "discard" pro-tip, or no answer at all (a hang, for the time-out). It records every request.

export type AkismetFakeMode = "answer" | "hang" | "error" | "discard";

export type AkismetFake = {
  /** The base URL, AKISMET_ENDPOINT's value. */
  endpoint: string;
  apiKey: string;
  /** Content holding this is spam. */
  marker: string;
  mode: AkismetFakeMode;
  /** Each request's path and form fields, in order. */
  requests: { path: string; fields: Record<string, string> }[];
  close: () => Promise<void>;
};

const REQUIRED = ["api_key", "blog", "user_ip"] as const;

export async function startAkismetFake(options: { apiKey?: string; marker?: string } = {}): Promise<AkismetFake> {
  const hanging = new Set<http.ServerResponse>();
  const fake: AkismetFake = {
    endpoint: "",
    apiKey: options.apiKey ?? "fake-akismet-key",
    marker: options.marker ?? "akismet-spam-marker",
    mode: "answer",
    requests: [],
    close: async () => undefined,
  };

  function answer(res: http.ServerResponse, path: string, fields: Record<string, string>): void {
    if (fake.mode === "hang") {
      hanging.add(res);
      return;
    }
    if (fake.mode === "error") {
      res.writeHead(500, { "content-type": "text/plain" }).end("Internal Server Error");
      return;
    }
    if (path !== "/1.1/comment-check") {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not found");
      return;
    }
    const missing = REQUIRED.find((name) => !fields[name]);
    if (fields.api_key !== fake.apiKey || missing) {
      const help = missing ? `Empty "${missing}" value` : "Invalid API key.";
      res.writeHead(200, { "content-type": "text/plain", "x-akismet-debug-help": help }).end("invalid");
      return;
    }
    if (fake.mode === "discard") {
      res.writeHead(200, { "content-type": "text/plain", "x-akismet-pro-tip": "discard" }).end("true");
      return;
    }
    const spam = (fields.comment_content ?? "").includes(fake.marker);
    res.writeHead(200, { "content-type": "text/plain" }).end(spam ? "true" : "false");
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://fake").pathname;
      const fields = req.method === "POST" ? Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8"))) : {};
      fake.requests.push({ path, fields });
      answer(res, path, fields);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return fake;
}
