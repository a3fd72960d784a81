/** A CSV file to download as `fileName`, kept by no cache (the leads' export, an import's refused rows). */
export function csvDownload(body: BodyInit, fileName: string): Response {
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "no-store",
    },
  });
}
