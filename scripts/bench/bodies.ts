// Realistic create_lead bodies: what a landing page's form back end posts. Every
// request gets a different email and number, so the indexes see distinct keys.

let counter = 0;
const next = () => ++counter;

export function jsonLeadBody(): string {
  const n = next();
  return JSON.stringify({
    name: `Ada Lovelace ${n}`,
    email: `ada.${n}@example.com`,
    phone: `+44 7911 ${String(100000 + (n % 900000))}`,
    organization: "Analytical Engines Ltd",
    job_title: "Head of Mathematics",
    website: "analytical-engines.example.com",
    source: "API",
    utm_source: "google",
    utm_medium: "cpc",
    utm_campaign: "spring-launch",
    favourite_colour: "green",
    newsletter: true,
  });
}

export const MULTIPART_BOUNDARY = "----LeadIntakeBench7MA4YWxkTrZu0gW";

export function multipartLeadBody(): string {
  const n = next();
  const fields: [string, string][] = [
    ["name", `Bob Smith ${n}`],
    ["email", `bob.${n}@example.org`],
    ["phone", `07911 ${String(100000 + (n % 900000))}`],
    ["country_code", "+44"],
    ["organization", "Smith & Sons"],
    ["utm_source", "newsletter"],
    ["utm_campaign", "autumn"],
    ["message", "Please call me back about pricing."],
  ];
  const parts = fields.map(
    ([name, value]) => `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return `${parts.join("")}--${MULTIPART_BOUNDARY}--\r\n`;
}
