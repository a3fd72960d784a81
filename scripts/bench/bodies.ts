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

/**
 * jsonLeadBody with every attribution field the attribution script adds (issue 43,
 * docs/attribution.md): a first touch from a Google ad and a last touch from a newsletter,
 * with their landing pages, referrers, click ids and times.
 */
export function attributedLeadBody(): string {
  const body = JSON.parse(jsonLeadBody()) as Record<string, unknown>;
  return JSON.stringify({
    ...body,
    utm_source: "newsletter",
    utm_medium: "email",
    utm_campaign: "march-digest",
    utm_term: "pricing",
    utm_content: "header-link",
    landing_page: "https://www.analytical-engines.example.com/pricing?utm_source=newsletter&utm_medium=email",
    referrer: "https://mail.example.net/",
    fbclid: "IwAR0bench",
    last_seen_at: "2026-11-30T09:12:00.000Z",
    first_utm_source: "google",
    first_utm_medium: "cpc",
    first_utm_campaign: "spring-launch",
    first_utm_term: "difference engine",
    first_utm_content: "ad-b",
    first_landing_page: "https://www.analytical-engines.example.com/?utm_source=google&utm_medium=cpc&gclid=Cj0KCQbench",
    first_referrer: "https://www.google.com/",
    first_gclid: "Cj0KCQbench",
    first_seen_at: "2026-11-02T17:45:00.000Z",
  });
}

/**
 * attributedLeadBody with its attribution extra fields under names the derivation does not
 * read (x_landing_page …): the same bytes stored, no touch to derive. Beside it, the
 * attributed row's cost is the derivation's alone.
 */
export function renamedAttributionBody(): string {
  const body = JSON.parse(attributedLeadBody()) as Record<string, unknown>;
  const plain = new Set(Object.keys(JSON.parse(jsonLeadBody()) as object));
  return JSON.stringify(Object.fromEntries(Object.entries(body).map(([name, value]) => [plain.has(name) ? name : `x_${name}`, value])));
}

/** How many people the repeat rows' bodies cycle over (issue 41). */
export const REPEAT_PEOPLE = 1000;
let repeats = 0;

/** A returning person: one of REPEAT_PEOPLE (their own email and number), what a second visit to a form posts. */
export function repeatLeadBody(): string {
  const n = repeats++ % REPEAT_PEOPLE;
  return JSON.stringify({
    name: `Grace Hopper ${n}`,
    email: `grace.${n}@example.net`,
    phone: `+44 7400 ${String(100000 + n)}`,
    organization: "Navy Computing",
    job_title: "Rear Admiral",
    source: "API",
    utm_source: "newsletter",
    utm_campaign: "winter",
    message: "Back again with a question about pricing.",
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

/**
 * A Tally delivery (the shape of Tally's documented example, lib/connections/fixtures/
 * tally-example.json) of a lead form with the fields jsonLeadBody sends: name, email,
 * phone, company, job title, website, a choice, a message and the UTM hidden fields. A new
 * responseId per request, so each delivery is a new submission, not Tally's retry.
 */
export function tallyLeadBody(): string {
  const n = next();
  const id = `bench${n.toString(36)}`;
  const field = (key: string, label: string, type: string, value: unknown, extra: object = {}) => ({ key, label, type, value, ...extra });
  return JSON.stringify({
    eventId: `bench-event-${n}`,
    eventType: "FORM_RESPONSE",
    createdAt: "2026-11-26T10:00:00.000Z",
    data: {
      responseId: id,
      submissionId: id,
      respondentId: `r${id}`,
      formId: "BnchFm",
      formName: "Contact sales",
      createdAt: "2026-11-26T10:00:00.000Z",
      fields: [
        field("question_name", "Full name", "INPUT_TEXT", `Ada Lovelace ${n}`),
        field("question_email", "Email", "INPUT_EMAIL", `ada.${n}@example.com`),
        field("question_phone", "Phone number", "INPUT_PHONE_NUMBER", `+447911${String(100000 + (n % 900000))}`),
        field("question_company", "Company", "INPUT_TEXT", "Analytical Engines Ltd"),
        field("question_title", "Job title", "INPUT_TEXT", "Head of Mathematics"),
        field("question_site", "Website", "INPUT_LINK", "analytical-engines.example.com"),
        field("question_size", "Team size", "MULTIPLE_CHOICE", ["opt-2"], {
          options: [
            { id: "opt-1", text: "1–10" },
            { id: "opt-2", text: "11–50" },
            { id: "opt-3", text: "51+" },
          ],
        }),
        field("question_message", "Message", "TEXTAREA", "Please call me back about pricing."),
        field("question_utm_source", "utm_source", "HIDDEN_FIELDS", "google"),
        field("question_utm_campaign", "utm_campaign", "HIDDEN_FIELDS", "spring-launch"),
      ],
    },
  });
}
