// The examples of the "How to call this endpoint" panel. The secret is always read from
// an environment variable on the caller's server; it never appears in an example.

export type Snippet = { label: string; code: string };

const PATH = "/api/method/crm.api.leads.create_lead";
const SECRET_VAR = "LEAD_INTAKE_API_SECRET";

/**
 * `source` is one of the team's own lead sources (other than the fallback API), or null:
 * then the examples send none and the lead gets API.
 */
export function snippets({ baseUrl, keyId, source }: { baseUrl: string; keyId: string; source: string | null }): Snippet[] {
  const url = `${baseUrl}${PATH}`;
  const lead = { name: "Ada Lovelace", email: "ada@example.com", ...(source ? { source } : {}) };
  const json = JSON.stringify(lead);
  const js = `{ ${Object.entries(lead)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    .join(", ")} }`;
  const python = `{${Object.entries(lead)
    .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
    .join(", ")}}`;
  const php = `[${Object.entries(lead)
    .map(([k, v]) => `'${k}' => '${v.replace(/[\\']/g, "\\$&")}'`)
    .join(", ")}]`;
  return [
    {
      label: "cURL",
      code: `curl -X POST '${url}' \\
  -H 'X-API-Key: ${keyId}' \\
  -H "X-API-Secret: $${SECRET_VAR}" \\
  -H 'Content-Type: application/json' \\
  -d '${json.replace(/'/g, "'\\''")}'`,
    },
    {
      label: "Node.js (server)",
      code: `// Runs on your server only: the secret must never reach a browser.
const response = await fetch("${url}", {
  method: "POST",
  headers: {
    "X-API-Key": "${keyId}",
    "X-API-Secret": process.env.${SECRET_VAR},
    "Content-Type": "application/json",
  },
  body: JSON.stringify(${js}),
});
const result = await response.json(); // { success, lead_id, message }`,
    },
    {
      label: "Python",
      code: `import os
import requests

response = requests.post(
    "${url}",
    headers={
        "X-API-Key": "${keyId}",
        "X-API-Secret": os.environ["${SECRET_VAR}"],
    },
    json=${python},
    timeout=10,
)
print(response.json())  # {"success": true, "lead_id": "CRM-LEAD-…", "message": "…"}`,
    },
    {
      label: "PHP",
      code: `<?php
// Runs on your server only: the secret must never reach a browser.
$ch = curl_init('${url}');
curl_setopt_array($ch, [
    CURLOPT_POST => true,
    CURLOPT_RETURNTRANSFER => true,
    CURLOPT_TIMEOUT => 10,
    CURLOPT_HTTPHEADER => [
        'X-API-Key: ${keyId}',
        'X-API-Secret: ' . getenv('${SECRET_VAR}'),
        'Content-Type: application/json',
    ],
    CURLOPT_POSTFIELDS => json_encode(${php}),
]);
$result = json_decode(curl_exec($ch), true); // ['success' => true, 'lead_id' => 'CRM-LEAD-…', …]
curl_close($ch);`,
    },
  ];
}
