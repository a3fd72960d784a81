// @ts-check
// The webhook row's receiver (scripts/bench/webhook.ts), in a process of its own so that
// answering the deliveries does not take the load generator's event loop: answers 204 to
// every POST, and GET /count with how many it has received. Prints its port on stdout.
import http from "node:http";

let received = 0;
const server = http.createServer((req, res) => {
  if (req.method === "GET" && req.url === "/count") {
    res.writeHead(200, { "content-type": "text/plain" }).end(String(received));
    return;
  }
  req.resume();
  req.on("end", () => {
    received++;
    res.writeHead(204).end();
  });
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`${typeof address === "object" && address ? address.port : 0}\n`);
});
process.on("disconnect", () => process.exit(0));
