import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

// A local webhook receiver for tests: it verifies every delivery with the standardwebhooks
// package's own verifier (as a real receiver would) and answers with the status the test
// chose. `secret` may be set after the endpoint is created (its secret is made then).

export type ReceivedDelivery = { id: string; verified: boolean; body: string; payload: unknown; headers: http.IncomingHttpHeaders };

export type WebhookReceiver = {
  url: string;
  port: number;
  deliveries: ReceivedDelivery[];
  secret: string | null;
  /** The status of the next answers; 200 by default. */
  status: number;
  /** Called when a request arrives; the answer waits for the promise it returns (a delivery held in flight). */
  onRequest: (() => void | Promise<void>) | null;
  close: () => Promise<void>;
};

export async function startWebhookReceiver(options: { port?: number; path?: string } = {}): Promise<WebhookReceiver> {
  const receiver: WebhookReceiver = {
    url: "",
    port: 0,
    deliveries: [],
    secret: null,
    status: 200,
    onRequest: null,
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let verified = false;
      try {
        if (receiver.secret) {
          new Webhook(receiver.secret).verify(body, req.headers as Record<string, string>);
          verified = true;
        }
      } catch {
        verified = false;
      }
      let payload: unknown = null;
      try {
        payload = JSON.parse(body);
      } catch {
        payload = null;
      }
      receiver.deliveries.push({ id: String(req.headers["webhook-id"] ?? ""), verified, body, payload, headers: req.headers });
      await receiver.onRequest?.();
      if (res.destroyed) return;
      res.writeHead(receiver.status, { "content-type": "text/plain" });
      res.end(receiver.status < 300 ? "ok" : "receiver says no");
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}${options.path ?? "/hooks/lead"}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
