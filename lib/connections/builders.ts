import { fieldsOf, parseJson, type ReadBody } from "../http/read-body";
import type { Delivery } from "./answers";
import { parseGenericFields, parseGenericJson } from "./generic";
import { now } from "../time/clock";
import { verifyTallySignature, verifyTypeformSignature, verifyWebflowSignature } from "./signatures";
import { parseTallyDelivery } from "./tally";
import { parseTypeformDelivery } from "./typeform";
import { parseWebflowDelivery } from "./webflow";

// The form builders a connection can be made for (docs/connections.md): how each one's
// body becomes a Delivery, and how its signature is checked when it signs. A builder that
// cannot sign is authenticated by the connection's URL alone.

export type BuilderId = "tally" | "typeform" | "webflow" | "generic";

export type Builder = {
  id: BuilderId;
  name: string;
  /** Checks the builder's signature over the body's bytes; absent for builders that cannot sign. */
  verify?: (body: ReadBody, headers: Headers, secret: string) => boolean;
  /**
   * Who makes the signing secret (builders that sign): "us", generated when the connection is
   * made and pasted into the builder; "builder", made by the builder and pasted in by the user
   * when the connection is made (required then, and never shown back).
   */
  secretFrom?: "us" | "builder";
  /** The body as the builder sends it → labelled answers; throws UnknownPayload (or a 400 ApiError) otherwise. */
  read: (body: ReadBody) => Promise<Delivery>;
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
  webflow: {
    id: "webflow",
    name: "Webflow",
    // The timestamp is checked against the app's clock (a test clock in HTTP tests).
    verify: (body, headers, secret) => verifyWebflowSignature(body.bytes, headers, secret, now()),
    secretFrom: "builder",
    read: async (body) => parseWebflowDelivery(parseJson(body.bytes)),
  },
  generic: {
    id: "generic",
    name: "Generic JSON",
    read: async (body) =>
      body.mediaType === "application/json" ? parseGenericJson(parseJson(body.bytes)) : parseGenericFields(await fieldsOf(body)),
  },
};

export const BUILDER_IDS = Object.keys(BUILDERS) as BuilderId[];

export function isBuilderId(value: unknown): value is BuilderId {
  return typeof value === "string" && Object.hasOwn(BUILDERS, value);
}

/** Whether connections of this builder are given a signing secret. */
export const signs = (builder: BuilderId) => Boolean(BUILDERS[builder].verify);

/** Whether the user pastes in the builder's own secret when the connection is made (Webflow). */
export const secretFromBuilder = (builder: BuilderId) => BUILDERS[builder].secretFrom === "builder";
