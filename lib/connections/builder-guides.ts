import type { BuilderId } from "./builders";
import { googleFormsScript } from "./googleforms-script";

// What a team does in each builder to connect it, with the builder's own menu names where
// its own pages give them: docs/connections.md has, per builder, the same steps and the pages
// they come from (and which menu names are from a third-party guide, not confirmed on the
// builder's own pages: Typeform's, Jotform's, Elementor's). Shown beside the URL and the
// signing secret when a connection is made or its URL rolled.

export type BuilderGuide = {
  intro: string;
  steps: string[];
  /** Code to paste into the builder, with the connection URL in it (Google Forms' Apps Script); shown with the URL. */
  script?: (url: string) => string;
};

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
  jotform: {
    intro:
      "Jotform's webhooks carry no signature to check: the connection URL is the only credential, keep it private. Jotform sends no question text, so answers are named after each question's unique name (q3_fullName → Full name).",
    steps: [
      "In Jotform, open the form in the Form Builder and click the Settings tab.",
      "Click Integrations, search for WebHooks and select it.",
      "Paste the connection URL as the webhook URL and click Complete Integration.",
      "Submit the form once: the lead (or a delivery that needs mapping) shows in this connection's log.",
    ],
  },
  // Fillout: https://www.fillout.com/help/webhook ("Connect your form to a webhook"); see
  // docs/connections.md "Fillout".
  webflow: {
    intro:
      "Webflow signs only webhooks made through its API, each with its own secret; a webhook added in Webflow's site settings is not signed and every delivery from it is refused.",
    steps: [
      'Create the webhook with Webflow\'s API (Create Webhook: POST https://api.webflow.com/v2/sites/<site id>/webhooks) with triggerType "form_submission" and the connection URL as url.',
      "Paste the secret Webflow returns for the webhook (or your Webflow app's client secret, for a webhook your app made) under Signing secret on this connection's page.",
      "Publish the site and submit the form once: the lead (or a delivery that needs mapping) shows in this connection's log.",
    ],
  },
  // Google Forms: https://developers.google.com/apps-script/guides/bound ("More > Script editor")
  // and https://developers.google.com/apps-script/guides/triggers/installable; see
  // docs/connections.md "Google Forms".
  framer: {
    intro:
      "Framer signs every delivery with the secret you set in its webhook (Framer-Signature); a delivery without the right signature is refused. Framer only posts to https:// URLs.",
    steps: [
      "In Framer, select the form on the canvas, click “Add…” next to “Send To” in the right sidebar and select “Webhook”.",
      "Enter the connection URL as the webhook URL.",
      "Set the webhook's secret to the signing secret (Framer asks for at least 32 characters; it cannot be viewed again).",
      "Give each field the name you want in the lead (Name, Email, Phone …): Framer sends the fields by those names.",
      "Publish the site and submit the form once: the lead (or a delivery that needs mapping) shows in this connection's log.",
    ],
  },
  wpforms: {
    intro:
      "WPForms' Webhooks addon signs every delivery with the webhook's Secret (X-WPForms-Webhook-Signature); a delivery without the right signature is refused.",
    steps: [
      "In WordPress, open the form in the WPForms form builder, go to Settings → Webhooks, turn on Enable Webhooks (Add New Webhook for another one).",
      "Paste the connection URL as the Request URL, set Request Method to POST and Request Format to JSON (FORM works too).",
      "Paste the signing secret into Secret (left empty, WPForms makes its own, which this connection cannot know).",
      "Under Request Body, add a key per field you want, named as the lead's field (name, email, phone …), and select the form's field for each.",
      "Save the form and submit it once: the lead (or a delivery that needs mapping) shows in this connection's log.",
    ],
  },
  // Jotform: its menu names are from third-party guides (Zulip's Jotform integration doc and
  // others), Jotform's own help page was not read; see docs/connections.md "Jotform".
  gravityforms: {
    intro:
      "Gravity Forms' Webhooks Add-On does not sign its requests: the connection URL is the only credential, keep it private. The entry names its answers by field id (1.3, 2 …): map them once on this connection's page.",
    steps: [
      "In WordPress, install and activate the Gravity Forms Webhooks Add-On.",
      "Open the form's Form Settings, go to the Webhooks tab and click Add New.",
      "Give the feed a Name, paste the connection URL as the Request URL, and choose Request Method POST, Request Format JSON and Request Body All Fields; save the settings.",
      "Submit the form once: the delivery shows in this connection's log as needing mapping, with each answer under its field id.",
      "Map the ids to the lead's fields on this connection's page (for a Name field, 1.3 is the first name and 1.6 the last name), then replay the delivery: the lead is made, and so is every next one.",
    ],
  },
  // Elementor Pro: the Form widget's own control names (modules/forms/widgets/form.php,
  // modules/forms/actions/webhook.php); docs/connections.md "Elementor Pro".
  elementor: {
    intro:
      "Elementor Pro's Webhook action does not sign its requests: the connection URL is the only credential, keep it private. Turn on Advanced Data so each answer arrives with its field's type.",
    steps: [
      "In the Elementor editor, select the Form widget and open Actions After Submit.",
      "Under Add Action, add Webhook.",
      "In the Webhook section, paste the connection URL as the Webhook URL and switch Advanced Data on.",
      "Update the page, then submit the form once: the lead (or a delivery that needs mapping) shows in this connection's log.",
    ],
  },
  fillout: {
    intro: "Fillout's webhooks carry no signature to check: the connection URL is the only credential, keep it private.",
    steps: [
      "In Fillout, open the form, click Integrate at the top, then click Webhook.",
      "Paste the connection URL as the Webhook URL and click Test: the test delivery shows in this connection's log.",
      "Click Finish setup, then publish the form.",
      "Submit the form once: the lead (or a delivery that needs mapping) shows in this connection's log.",
    ],
  },
  // Gravity Forms: https://docs.gravityforms.com/triggering-webhooks-form-submissions/ and the
  // Webhooks Add-On's settings (class-gf-webhooks.php); docs/connections.md "Gravity Forms".
  googleforms: {
    intro:
      "Google Forms has no webhook: the Apps Script below, bound to the form, posts each response to this connection. The URL inside it is the connection's only credential: keep the script private.",
    steps: [
      "In Google Forms, open the form, click More (⋮) and then Script editor: the form's Apps Script project opens.",
      "Replace everything in Code.gs with the Apps Script below and save the project.",
      "Choose the function install in the toolbar, click Run and authorise the script when Google asks: it adds the form's On form submit trigger.",
      "Submit the form once: the lead (or a delivery that needs mapping) shows in this connection's log. If nothing arrives, the script's logs show Lead Intake's answer.",
    ],
    script: googleFormsScript,
  },
  generic: {
    intro:
      "Any JSON object (flat or nested) or form body, from Zapier, Make, n8n, a HubSpot workflow or your own code. The URL is the credential: keep it private.",
    steps: [
      "In your tool, add a webhook (Zapier: Webhooks by Zapier → POST; Make: HTTP → Make a request; n8n: HTTP Request).",
      "Set the method to POST and the connection URL, and send the submission as JSON (or as a form).",
      "Name the fields as you like: name, email, phone … are recognised, everything else is kept as extra fields.",
      "Optionally, set a secret on this connection's page and send it in an X-Connection-Secret header: the URL alone then no longer suffices.",
      "Send a test: the lead (or a delivery that needs mapping) shows in this connection's log.",
    ],
  },
};
