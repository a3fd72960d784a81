// The small page a visitor sees when a browser form post is refused: what went wrong in
// words, what to do, and a link back to the form. Plain HTML built from escaped text,
// with a policy that allows no script at all.

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export const VISITOR_PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** What to tell a visitor for each refusal. */
export function visitorAdvice(status: number): { title: string; advice: string } {
  if (status === 422 || status === 400 || status === 413 || status === 415) {
    return { title: "Please check the form", advice: "Go back, correct this, and send the form again." };
  }
  if (status === 429) return { title: "Too many submissions", advice: "Please wait a little, then send the form again." };
  if (status === 403) return { title: "Your message was not sent", advice: "Go back and send the form again from its page." };
  if (status === 404)
    return {
      title: "This form is not available",
      advice: "The form may have been switched off. Please contact the website's owner another way.",
    };
  return { title: "Your message was not sent", advice: "Something went wrong on our side. Please try again in a few minutes." };
}

export function visitorErrorPage(options: {
  status: number;
  error: string;
  backUrl: string | null;
  headers?: Record<string, string>;
}): Response {
  const { title, advice } = visitorAdvice(options.status);
  const back = options.backUrl
    ? `<p><a href="${escape(options.backUrl)}">← Back to the form</a></p>`
    : `<p>Use your browser's Back button to return to the form.</p>`;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>
body{font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a;margin:0;padding:3rem 1rem}
main{max-width:32rem;margin:0 auto;background:#fff;border:1px solid #e2e8f0;border-radius:.75rem;padding:2rem}
h1{font-size:1.25rem;margin:0 0 1rem}p{line-height:1.5}a{color:#4338ca}
.error{background:#fef2f2;border:1px solid #fecaca;color:#991b1b;border-radius:.5rem;padding:.75rem 1rem}
</style>
</head>
<body>
<main>
<h1>${escape(title)}</h1>
<p class="error" role="alert">${escape(options.error)}</p>
<p>${escape(advice)}</p>
${back}
</main>
</body>
</html>
`;
  return new Response(html, {
    status: options.status,
    headers: {
      ...options.headers,
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": VISITOR_PAGE_POLICY,
    },
  });
}
