// The examples of the "How to call this endpoint" panel. The secret is always read from
// an environment variable on the caller's server; it never appears in an example.

export type Snippet = { label: string; code: string };

const PATH = "/api/method/crm.api.leads.create_lead";
const SECRET_VAR = "LEAD_INTAKE_API_SECRET";

export function snippets({ baseUrl, keyId }: { baseUrl: string; keyId: string }): Snippet[] {
  const url = `${baseUrl}${PATH}`;
  return [
    {
      label: "cURL",
      code: `curl -X POST '${url}' \\
  -H 'X-API-Key: ${keyId}' \\
  -H "X-API-Secret: $${SECRET_VAR}" \\
  -H 'Content-Type: application/json' \\
  -d '{"name": "Ada Lovelace", "email": "ada@example.com", "source": "Website"}'`,
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
  body: JSON.stringify({ name: "Ada Lovelace", email: "ada@example.com", source: "Website" }),
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
    json={"name": "Ada Lovelace", "email": "ada@example.com", "source": "Website"},
    timeout=10,
)
print(response.json())  # {"success": true, "lead_id": "CRM-LEAD-…", "message": "…"}`,
    },
  ];
}
