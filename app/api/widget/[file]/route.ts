import { widgetFile } from "@/lib/web-forms/widget-files";

// The ALTCHA widget's files for web forms and the attribution script (lib/web-forms/widget-files.ts).
export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  const file = await widgetFile((await params).file);
  if (!file) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  return new Response(new Uint8Array(Buffer.from(file.body)), {
    headers: {
      "Content-Type": `${file.type}; charset=utf-8`,
      "Cache-Control": "public, max-age=3600",
      // A module script or stylesheet on another website's page is fetched with CORS.
      "Access-Control-Allow-Origin": "*",
      "Cross-Origin-Resource-Policy": "cross-origin",
    },
  });
}
