import type { BuilderId } from "./builders";

// What a team does in each builder to connect it, with the builder's own menu names, from
// the builder's documentation (Tally: https://tally.so/help/webhooks, "Add a webhook";
// Typeform: its menu names are from a third-party guide, see docs/connections.md "Typeform";
// Webflow: https://developers.webflow.com/data/docs/working-with-webhooks and
// https://developers.webflow.com/data/reference/webhooks/create, see docs/connections.md "Webflow";
// docs/connections.md has the same steps). Shown beside the URL
// and the signing secret when a connection is made or its URL rolled.

export type BuilderGuide = { intro: string; steps: string[] };

export const BUILDER_GUIDES: Readonly<Record<BuilderId, BuilderGuide>> = {
  tally: {
    intro: "Tally signs every delivery with the signing secret; a delivery without the right signature is refused.",
    steps: [
      "In Tally, publish the form, open its Integrations tab and click Connect next to Webhooks.",
      "Paste the connection URL as the Endpoint URL.",
      "Turn on the signing secret option and paste the signing secret.",
      "Save, then submit the form once: the lead (or a delivery that needs mapping) shows in this connection's log.",
    ],
  },
  typeform: {
    intro: "Typeform signs every delivery with the secret you paste into its webhook; a delivery without the right signature is refused.",
    steps: [
      "In Typeform, open the form, go to Connect → Webhooks and add a webhook with the connection URL; save it.",
      "Click Edit on the webhook, paste the signing secret into Secret and save.",
      "Turn the webhook on (Typeform adds it switched off), then submit the form once: the lead (or a delivery that needs mapping) shows in this connection's log.",
    ],
  },
  webflow: {
    intro:
      "Webflow signs only webhooks made through its API, each with its own secret; a webhook added in Webflow's site settings is not signed and every delivery from it is refused.",
    steps: [
      'Create the webhook with Webflow\'s API (Create Webhook: POST https://api.webflow.com/v2/sites/<site id>/webhooks) with triggerType "form_submission" and the connection URL as url.',
      "Paste the secret Webflow returns for the webhook (or your Webflow app's client secret, for a webhook your app made) under Signing secret on this connection's page.",
      "Publish the site and submit the form once: the lead (or a delivery that needs mapping) shows in this connection's log.",
    ],
  },
  generic: {
    intro:
      "Any JSON object (flat or nested) or form body, from Zapier, Make, n8n, a HubSpot workflow or your own code. The URL is the credential: keep it private.",
    steps: [
      "In your tool, add a webhook (Zapier: Webhooks by Zapier → POST; Make: HTTP → Make a request; n8n: HTTP Request).",
      "Set the method to POST and the connection URL, and send the submission as JSON (or as a form).",
      "Name the fields as you like: name, email, phone … are recognised, everything else is kept as extra fields.",
      "Send a test: the lead (or a delivery that needs mapping) shows in this connection's log.",
    ],
  },
};
