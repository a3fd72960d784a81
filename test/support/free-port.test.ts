import assert from "node:assert/strict";
import net from "node:net";
import { test } from "node:test";
import { FETCH_BLOCKED_PORTS, freePort } from "./free-port";

test("freePort never returns a port fetch() refuses: a range of only such ports has none", async () => {
  await assert.rejects(freePort({ from: 6665, to: 6669 }), /No free port between 6665 and 6669/);
  for (let i = 0; i < 20; i++) assert.equal(FETCH_BLOCKED_PORTS.has(await freePort({ from: 6660, to: 6670 })), false);
});

test("the blocked list is fetch()'s own: a server on such a port serves, and fetch() refuses it as a bad port", async () => {
  const server = net.createServer((socket) => socket.end("HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n"));
  const listening = await new Promise<boolean>((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(6666, "127.0.0.1", () => resolve(true));
  });
  try {
    // Whether or not 6666 is free here, fetch() refuses before connecting.
    await assert.rejects(fetch("http://127.0.0.1:6666/"), (error: Error) =>
      /bad port/i.test(String((error.cause as Error)?.message ?? error)),
    );
  } finally {
    if (listening) server.close();
  }
});

test("freePort skips a port in use and a port it is told to skip", async () => {
  const server = net.createServer();
  const port = await new Promise<number>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as net.AddressInfo).port)),
  );
  try {
    await assert.rejects(freePort({ from: port, to: port }), /No free port/);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  await assert.rejects(freePort({ from: port, to: port }, [port]), /No free port/);
});
