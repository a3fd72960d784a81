import { bodyMediaType, fieldsOf, parseJson, type ReadBody } from "../http/read-body";
import { now } from "../time/clock";
import type { Delivery } from "./answers";
import { parseElementorBody } from "./elementor";
import { parseFilloutDelivery } from "./fillout";
import { parseFramerDelivery } from "./framer";
import { parseGenericFields, parseGenericJson } from "./generic";
import { parseGoogleFormsDelivery } from "./googleforms";
import { parseGravityFormsBody } from "./gravityforms";
import { parseJotformDelivery } from "./jotform";
import {
  SECRET_HEADER,
  verifyFramerSignature,
  verifySecretHeader,
  verifyTallySignature,
  verifyTypeformSignature,
  verifyWebflowSignature,
  verifyWPFormsSignature,
  wpformsSignatureOf,
} from "./signatures";
import { parseTallyDelivery } from "./tally";
import { parseTypeformDelivery } from "./typeform";
import { parseWebflowDelivery } from "./webflow";
import { readWPFormsBody } from "./wpforms";

// The form builders a connection can be made for (docs/connections.md): how each one's
// body becomes a Delivery, and how its signature is checked when it signs. A builder that
// cannot sign is authenticated by the connection's URL alone.

export type BuilderId =
  | "tally"
  | "typeform"
  | "jotform"
  | "webflow"
  | "framer"
  | "wpforms"
  | "gravityforms"
  | "elementor"
  | "fillout"
  | "googleforms"
  | "generic";

export type Builder = {
  id: BuilderId;
  name: string;
  /** Checks the builder's signature over the body's bytes; absent for builders that cannot sign. */
  verify?: (body: ReadBody, headers: Headers, secret: string) => boolean;
  /**
   * Who makes the signing secret (builders that sign): "us", generated when the connection is
   * made and pasted into the builder; "builder", made by the builder and pasted in by the user
   * (when the connection is made or later; every delivery is refused until then; never shown
   * back); "team", an optional secret the team chooses (Generic's secret header): without one
   * the URL alone authenticates.
   */
  secretFrom?: "us" | "builder" | "team";
  /**
   * The body as the builder sends it → labelled answers; throws UnknownPayload (or a 400 ApiError) otherwise.
   * `headers` are the request's (Framer's submission id is a header); a replay of a kept body has none.
   */
  read: (body: ReadBody, headers: Headers) => Promise<Delivery>;
  /**
   * Set for a builder that takes any answer but 200 as a failure (Elementor Pro, whose
   * visitor then sees "Your submission failed"): its created and kept deliveries answer 200.
   */
  onlyOk200?: true;
};

export const BUILDERS: Readonly<Record<BuilderId, Builder>> = {
  tally: {
    id: "tally",
    name: "Tally",
    verify: (body, headers, secret) => verifyTallySignature(body.bytes, headers.get("tally-signature"), secret),
    secretFrom: "us",
    read: async (body) => parseTallyDelivery(parseJson(body.bytes)),
  },
  typeform: {
    id: "typeform",
    name: "Typeform",
    verify: (body, headers, secret) => verifyTypeformSignature(body.bytes, headers.get("typeform-signature"), secret),
    secretFrom: "us",
    read: async (body) => parseTypeformDelivery(parseJson(body.bytes)),
  },
  jotform: {
    id: "jotform",
    name: "Jotform",
    // Jotform posts multipart/form-data: the answers are JSON text in its rawRequest field.
    read: async (body) => parseJotformDelivery(await fieldsOf(body)),
  },
  webflow: {
    id: "webflow",
    name: "Webflow",
    // The timestamp is checked against the app's clock (a test clock in HTTP tests).
    verify: (body, headers, secret) => verifyWebflowSignature(body.bytes, headers, secret, now()),
    secretFrom: "builder",
    read: async (body) => parseWebflowDelivery(parseJson(body.bytes)),
  },
  framer: {
    id: "framer",
    name: "Framer",
    verify: (body, headers, secret) =>
      verifyFramerSignature(body.bytes, headers.get("framer-signature"), headers.get("framer-webhook-submission-id"), secret),
    secretFrom: "us",
    read: async (body, headers) => parseFramerDelivery(parseJson(body.bytes), headers.get("framer-webhook-submission-id")),
  },
  wpforms: {
    id: "wpforms",
    name: "WPForms",
    // JSON or a form, as the webhook's Request Format says; the timestamp is checked against the app's clock.
    verify: (body, headers, secret) => verifyWPFormsSignature(body, headers.get("x-wpforms-webhook-signature"), secret, now()),
    secretFrom: "us",
    read: async (body, headers) => readWPFormsBody(body, wpformsSignatureOf(headers.get("x-wpforms-webhook-signature"))),
  },
  gravityforms: {
    id: "gravityforms",
    name: "Gravity Forms",
    // The Webhooks Add-On cannot sign: the connection's URL authenticates it.
    read: parseGravityFormsBody,
  },
  elementor: {
    id: "elementor",
    name: "Elementor Pro",
    // The Form widget's Webhook action cannot sign: the connection's URL authenticates it.
    read: parseElementorBody,
    // Its Webhook action throws on any status but 200 (modules/forms/actions/webhook.php).
    onlyOk200: true,
  },
  fillout: {
    id: "fillout",
    name: "Fillout",
    read: async (body) => parseFilloutDelivery(parseJson(body.bytes)),
  },
  googleforms: {
    id: "googleforms",
    name: "Google Forms",
    // No webhook and no signature: our Apps Script posts each response; the URL is the credential.
    read: async (body) => parseGoogleFormsDelivery(parseJson(body.bytes)),
  },
  generic: {
    id: "generic",
    name: "Generic JSON",
    // Once the team sets a secret, every delivery sends it in X-Connection-Secret.
    verify: (_body, headers, secret) => verifySecretHeader(headers.get(SECRET_HEADER), secret),
    secretFrom: "team",
    read: async (body) =>
      body.mediaType === "application/json" ? parseGenericJson(parseJson(body.bytes)) : parseGenericFields(await fieldsOf(body)),
  },
};

/** How a delivery's body is read, live, on replay and by an erasure: JSON sent as text/plain, or untyped, is JSON. */
export const DELIVERY_READ_OPTIONS = { plainTextIsJson: true };

/** A kept delivery's body (its log row's payload and Content-Type), as the intake read it when it came. */
export function keptBody(payload: string, contentType: string | null): ReadBody {
  return {
    bytes: new Uint8Array(Buffer.from(payload, "utf8")),
    contentType: contentType ?? "application/json",
    mediaType: bodyMediaType(contentType, DELIVERY_READ_OPTIONS),
  };
}

export const BUILDER_IDS = Object.keys(BUILDERS) as BuilderId[];

export function isBuilderId(value: unknown): value is BuilderId {
  return typeof value === "string" && Object.hasOwn(BUILDERS, value);
}

/** Whether we generate the connection's signing secret when it is made, shown once (Tally, Typeform, Framer, WPForms). */
export const secretFromUs = (builder: BuilderId) => BUILDERS[builder].secretFrom === "us";

/**
 * Whether the team sets the secret on the connection's page (or the CLI's --signing-secret):
 * the builder's own (Webflow), or the optional secret header (Generic). Never shown back.
 */
export const secretSetByTeam = (builder: BuilderId) => {
  const from = BUILDERS[builder].secretFrom;
  return from === "builder" || from === "team";
};

/** Whether a connection of this builder without a secret takes deliveries (the URL alone is then the credential). */
export const secretOptional = (builder: BuilderId) => !BUILDERS[builder].verify || BUILDERS[builder].secretFrom === "team";
