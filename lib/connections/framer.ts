import { flatAnswerValue, isJsonObject, nonEmpty, UnknownPayload } from "./answers";
import type { Answer, Delivery } from "./answers";

// Framer's form webhook (https://www.framer.com/help/articles/framer-form-webhook-setup/):
// "Framer sends form submissions as JSON … The JSON uses the names of the inputs as keys, and
// the input values as the corresponding values": one flat object, each field under the name
// the site's author gave it (https://www.framer.com/help/articles/add-different-field-types-to-native-form/:
// "Set the field name used in submissions"). Nothing in the body says a field's type, nor
// the form, the page or the time. The submission's id is not in the body: it is the
// `Framer-Webhook-Submission-Id` header ("A unique ID for each form submission"), signed
// with the body: a retry of a submission (Framer retries up to 5 times) is that submission.

/** Reads a Framer body (already parsed from JSON) and its Framer-Webhook-Submission-Id header; any other shape is refused. */
export function parseFramerDelivery(body: unknown, submissionId: string | null): Delivery {
  if (!isJsonObject(body)) throw new UnknownPayload("A Framer delivery is a JSON object of the form's fields, by their names");
  const answers = Object.entries(body).flatMap(([name, value], index): Answer[] => {
    const read = flatAnswerValue(value);
    if (read === undefined)
      throw new UnknownPayload(`Framer field ${index + 1} has a value that is not text, a number, true/false or a list`);
    return read === null ? [] : [{ key: name, label: name, value: read }];
  });
  return { submissionId: nonEmpty(submissionId?.trim()), answers, meta: {} };
}
