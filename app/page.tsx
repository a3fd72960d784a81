export default function Home() {
  return (
    <main className="mx-auto max-w-2xl p-8">
      <h1 className="text-2xl font-semibold">Lead Intake</h1>
      <p className="mt-2 text-slate-600">
        Post leads to <code className="rounded bg-slate-200 px-1">/api/method/crm.api.leads.create_lead</code> with
        your team&apos;s <code>X-API-Key</code> and <code>X-API-Secret</code>. The API is described at{" "}
        <a className="text-blue-700 underline" href="/api/openapi.json">
          /api/openapi.json
        </a>
        .
      </p>
    </main>
  );
}
