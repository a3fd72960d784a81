import { describeValue, flatAnswerValue, isJsonObject, nonEmpty, UnknownPayload } from "./answers";
import type { Answer, AnswerType, Delivery } from "./answers";

// Webflow's form_submission webhook body (https://developers.webflow.com/data/docs/working-with-webhooks,
// https://developers.webflow.com/data/reference/webhooks/events/form-submission):
//   { triggerType: "form_submission",
//     payload: { name, siteId, data: { <field name>: value, … },
//       schema?: [{ fieldName, fieldType, fieldElementId }], submittedAt, id, formId, formElementId } }
// `data` holds each field under its name as the form sends it ("First Name", "email"), a value
// as submitted (text, or a number: the example's phone is 15550000000). `schema` lists the
// form's fields with a type from a closed list: FormTextInput, FormTextarea, FormCheckboxInput,
// FormRadioInput, FormFileUploadInput. None of them says email or phone: the label decides.
// Real deliveries also carry pageId, publishedPath and pageUrl (not in Webflow's pages; kept
// as metadata when present).

// Maps, not objects: a field named "constructor" must not find Object.prototype's.
const BY_FIELD_TYPE = new Map<string, AnswerType>([
  ["FormTextInput", "text"],
  ["FormTextarea", "text"],
  ["FormCheckboxInput", "choice"],
  ["FormRadioInput", "choice"],
  ["FormFileUploadInput", "file"],
]);

const META_FIELDS: readonly (readonly [string, string])[] = [
  ["formName", "name"],
  ["siteId", "siteId"],
  ["formId", "formId"],
  ["formElementId", "formElementId"],
  ["pageId", "pageId"],
  ["publishedPath", "publishedPath"],
  ["submittedAt", "submittedAt"],
];

/** Reads a Webflow form_submission body (already parsed from JSON); any other shape is refused. */
export function parseWebflowDelivery(body: unknown): Delivery {
  if (!isJsonObject(body)) throw new UnknownPayload("A Webflow delivery is a JSON object");
  if (body.triggerType !== "form_submission") {
    throw new UnknownPayload(`A Webflow delivery has triggerType "form_submission", not ${describeValue(body.triggerType)}`);
  }
  const payload = body.payload;
  if (!isJsonObject(payload)) throw new UnknownPayload("A Webflow delivery has a payload object");
  if (!isJsonObject(payload.data)) throw new UnknownPayload("A Webflow delivery has a payload.data object");

  const types = readSchema(payload.schema);
  const answers = Object.entries(payload.data).flatMap(([name, value], index): Answer[] => {
    const read = flatAnswerValue(value);
    if (read === undefined) throw new UnknownPayload(`Webflow field ${index + 1} has a value that is not text, a number or a list`);
    if (read === null) return [];
    const type = types.get(name);
    return [{ key: name, label: name, ...(type && { type }), value: read }];
  });

  const meta: Record<string, string> = {};
  for (const [metaName, field] of META_FIELDS) {
    const kept = nonEmpty(payload[field]);
    if (kept !== null) meta[metaName] = kept;
  }
  // payload.id is the submission's id (the form submissions API's id), the same on every retry.
  return { submissionId: nonEmpty(payload.id), answers, meta };
}

/** Field name → answer type, from payload.schema; a type Webflow does not list gives none. */
function readSchema(schema: unknown): Map<string, AnswerType> {
  const types = new Map<string, AnswerType>();
  if (schema === undefined || schema === null) return types;
  if (!Array.isArray(schema)) throw new UnknownPayload("A Webflow delivery's payload.schema is a list");
  schema.forEach((field, index) => {
    if (!isJsonObject(field)) throw new UnknownPayload(`Webflow schema field ${index + 1} is not an object`);
    const name = nonEmpty(field.fieldName);
    const type = typeof field.fieldType === "string" ? BY_FIELD_TYPE.get(field.fieldType) : undefined;
    if (name !== null && type && !types.has(name)) types.set(name, type);
  });
  return types;
}
