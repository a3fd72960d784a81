import { CONSENT_FIELD, CONSENT_VERSION_FIELD } from "../consent/consent-evidence";
import { HONEYPOT_FIELD } from "./form-fields";

// The copy-paste HTML of the Web Forms tab: a plain form that posts to this deployment, and
// a variant that sends it with fetch and shows the answer in place. Field names are the
// API's (spec 2.1); any other field is kept as an extra field of the lead. Both load the
// attribution script (docs/attribution.md), which adds where the visitor came from to the
// form as hidden fields.

export type SnippetForm = {
  id: string;
  challenge: boolean;
  /** The consent the form asks for (docs/consent.md): an unticked box with its text, and its version posted beside it. */
  consent?: { id: string; text: string; policyUrl: string | null; required: boolean } | null;
};

const escapeHtml = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");

/** The consent box: unticked, its text as the team wrote it (escaped), the policy link, and the version it shows. */
function consentLines(consent: NonNullable<SnippetForm["consent"]>): string[] {
  const policy = consent.policyUrl ? ` <a href="${escapeHtml(consent.policyUrl)}" target="_blank" rel="noopener">Privacy policy</a>` : "";
  return [
    `  <input type="hidden" name="${CONSENT_VERSION_FIELD}" value="${consent.id}">`,
    `  <label><input type="checkbox" name="${CONSENT_FIELD}" value="yes"${consent.required ? " required" : ""}> ${escapeHtml(consent.text)}</label>${policy}`,
  ];
}

const fields = (form: SnippetForm, baseUrl: string) =>
  [
    `  <label>Name <input name="name" required autocomplete="name"></label>`,
    `  <label>Email <input name="email" type="email" autocomplete="email"></label>`,
    `  <label>Phone <input name="phone" type="tel" autocomplete="tel"></label>`,
    `  <label>Message <textarea name="message"></textarea></label>`,
    ...(form.consent ? consentLines(form.consent) : []),
    `  <!-- Spam trap: people never see or fill it; a submission that fills it is dropped. -->`,
    `  <input name="${HONEYPOT_FIELD}" tabindex="-1" autocomplete="off" aria-hidden="true" style="position:absolute;left:-10000px">`,
    ...(form.challenge ? [`  <altcha-widget challenge="${baseUrl}/api/forms/${form.id}/challenge"></altcha-widget>`] : []),
    `  <button type="submit">Send</button>`,
  ].join("\n");

const pageScripts = (form: SnippetForm, baseUrl: string) =>
  (form.challenge ? `\n<script type="module" src="${baseUrl}/api/widget/altcha.js"></script>` : "") +
  `\n<script src="${baseUrl}/api/widget/attribution.js" async></script>`;

export function htmlSnippet(form: SnippetForm, baseUrl: string): string {
  return `<form action="${baseUrl}/api/forms/${form.id}" method="post">
${fields(form, baseUrl)}
</form>${pageScripts(form, baseUrl)}`;
}

export function fetchSnippet(form: SnippetForm, baseUrl: string): string {
  return `<form id="lead-form">
${fields(form, baseUrl)}
</form>
<p id="lead-form-result" role="status"></p>${pageScripts(form, baseUrl)}
<script>
document.getElementById("lead-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const result = document.getElementById("lead-form-result");
  try {
    const response = await fetch("${baseUrl}/api/forms/${form.id}", {
      method: "POST",
      headers: { Accept: "application/json" },
      body: new FormData(event.target),
    });
    const answer = await response.json();
    result.textContent = answer.success ? "Thank you! We will be in touch." : answer.error;
    if (answer.success) event.target.reset();
  } catch {
    result.textContent = "Your message could not be sent; please try again.";
  }
});
</script>`;
}
