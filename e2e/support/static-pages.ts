import http from "node:http";

// A static website of several pages on another origin than the app (another port of
// 127.0.0.1), for tests that walk from page to page (the attribution script: a landing page,
// then the contact page). Each path serves its HTML whatever the query string; a POST goes to
// `onPost`, the site's own back end (a form that posts to the site, which calls create_lead).

export type StaticPages = { origin: string; close: () => Promise<void> };

/** What the site's back end got: the form's fields in the order sent (urlencoded). */
export type PostedForm = { path: string; fields: [string, string][] };

export type StaticPagesOptions = {
  /** Answers a POST with an HTML page; without it a POST is 405. */
  onPost?: (form: PostedForm) => Promise<string>;
};

export async function startStaticPages(pages: Record<string, string>, options: StaticPagesOptions = {}): Promise<StaticPages> {
  const server = http.createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://site").pathname;
    if (request.method === "POST") {
      if (!options.onPost) return void response.writeHead(405).end();
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const fields = [...new URLSearchParams(Buffer.concat(chunks).toString("utf8"))];
        options.onPost!({ path, fields }).then(
          (html) => response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(html),
          (error: unknown) => response.writeHead(500, { "Content-Type": "text/plain" }).end(String(error)),
        );
      });
      return;
    }
    const html = Object.hasOwn(pages, path) ? pages[path] : undefined;
    if (html === undefined) return void response.writeHead(404).end();
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A page of a site: a title, a main landmark and its content. */
export function sitePage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
}
