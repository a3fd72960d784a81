import http from "node:http";

// A static website on another origin than the app (another port of 127.0.0.1), serving
// one HTML page at "/": the web form tests paste the Web Forms tab's snippet into it, as a
// team would paste it into its landing page.

export type StaticSite = { origin: string; close: () => Promise<void> };

export async function startStaticSite(html: string): Promise<StaticSite> {
  const server = http.createServer((request, response) => {
    if (request.url !== "/" && request.url !== "/index.html") {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A page around a snippet: a title and a main landmark, like any site's contact page. */
export function pageWith(snippet: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Contact us</title></head><body><main><h1>Contact us</h1>${snippet}</main></body></html>`;
}
