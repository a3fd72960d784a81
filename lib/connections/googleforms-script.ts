import { GOOGLE_FORMS_SOURCE, GOOGLE_FORMS_VERSION } from "./googleforms";

// The Apps Script a team pastes into its Google Form (docs/connections.md "Google Forms"):
// Google Forms has no webhook, so this script, bound to the form, posts each response to the
// connection's URL; googleforms.ts reads what it posts. Every call is from Google's Apps Script
// reference (https://developers.google.com/apps-script/reference):
//   FormApp.getActiveForm(), Form.getId() / getTitle()            forms/form-app, forms/form
//   e.response (the installable form-submit trigger's event)      guides/triggers/events
//   FormResponse.getId() / getTimestamp() / getRespondentEmail() / getItemResponses()
//                                                                  forms/form-response
//   ItemResponse.getItem() / getResponse(), Item.getId() / getTitle() / getType(),
//   Item.asGridItem() / asCheckboxGridItem(), GridItem.getRows()  forms/item-response, forms/item
//   FormApp.ItemType (compared with ===, as the reference does)   forms/item-type
//   UrlFetchApp.fetch(url, { method, contentType, payload, muteHttpExceptions }),
//   HTTPResponse.getResponseCode() / getContentText()             url-fetch/url-fetch-app
//   ScriptApp.getProjectTriggers(), Trigger.getHandlerFunction(),
//   ScriptApp.newTrigger(name).forForm(form).onFormSubmit().create()
//                                                                  script/script-app, script/trigger
//   Utilities.sleep(milliseconds)                                  utilities/utilities
//   console.log / console.error                                   base/console
// Plain ES5 (var, function): it runs on the V8 runtime and on the older one alike.
// lib/connections/googleforms-script.test.ts runs it in node:vm against fakes of these objects.

/** The name of the function the trigger calls. */
export const GOOGLE_FORMS_HANDLER = "sendResponse";

/** FormApp.ItemType's question types (https://developers.google.com/apps-script/reference/forms/item-type). */
const QUESTION_TYPES = [
  "CHECKBOX",
  "CHECKBOX_GRID",
  "DATE",
  "DATETIME",
  "DURATION",
  "FILE_UPLOAD",
  "GRID",
  "LIST",
  "MULTIPLE_CHOICE",
  "PARAGRAPH_TEXT",
  "RATING",
  "SCALE",
  "TEXT",
  "TIME",
];

/**
 * The script with the connection URL in it. The URL is written as a JSON string literal (a
 * valid JavaScript string literal): whatever it holds, it stays a string and runs nothing.
 */
export function googleFormsScript(connectionUrl: string): string {
  return `/**
 * Sends every response to this Google Form to Lead Intake, where it becomes a lead.
 *
 * 1. Paste this whole file into the form's Apps Script editor, replacing what is there, and save.
 * 2. Choose the function "install" in the toolbar, click Run and authorise the script.
 * Each new response is then posted once to the connection URL below. The URL is the
 * connection's only credential: keep this script private.
 */
var CONNECTION_URL = ${JSON.stringify(connectionUrl)};

var QUESTION_TYPES = ${JSON.stringify(QUESTION_TYPES)};

/** How long to wait before each new try of a delivery Lead Intake could not take yet. */
var RETRY_WAITS_MS = [5000, 30000];

/** Run once: adds the "On form submit" trigger that calls ${GOOGLE_FORMS_HANDLER}. Running it again adds none. */
function install() {
  var form = FormApp.getActiveForm();
  var triggers = ScriptApp.getProjectTriggers();
  for (var i = 0; i < triggers.length; i++) {
    if (triggers[i].getHandlerFunction() === "${GOOGLE_FORMS_HANDLER}") {
      console.log("Already installed: each new response is sent to the connection URL.");
      return;
    }
  }
  ScriptApp.newTrigger("${GOOGLE_FORMS_HANDLER}").forForm(form).onFormSubmit().create();
  console.log("Installed: each new response is now sent to the connection URL.");
}

/**
 * Called by the trigger with the form-submit event. Posts the response; when Lead Intake is
 * busy (429), failing (5xx) or unreachable, tries again after 5 s and after 30 s more (the
 * same response is the same lead however often it arrives). Any other answer is logged.
 */
function ${GOOGLE_FORMS_HANDLER}(e) {
  var form = FormApp.getActiveForm();
  var response = e.response;
  var body = {
    source: "${GOOGLE_FORMS_SOURCE}",
    version: ${GOOGLE_FORMS_VERSION},
    formId: form.getId(),
    formTitle: form.getTitle(),
    responseId: response.getId(),
    submittedAt: response.getTimestamp().toISOString()
  };
  var email = response.getRespondentEmail();
  if (email) body.respondentEmail = email;
  body.answers = response.getItemResponses().map(answerOf);

  var payload = JSON.stringify(body);
  for (var attempt = 0; ; attempt++) {
    var status = 0;
    var text;
    try {
      var answer = UrlFetchApp.fetch(CONNECTION_URL, {
        method: "post",
        contentType: "application/json",
        payload: payload,
        muteHttpExceptions: true
      });
      status = answer.getResponseCode();
      text = answer.getContentText();
    } catch (error) {
      text = String(error);
    }
    if (status >= 200 && status <= 299) return;
    var again = (status === 0 || status === 429 || status >= 500) && attempt < RETRY_WAITS_MS.length;
    console.error("Lead Intake answered " + status + " to response " + body.responseId + ": " + text + (again ? " (trying again)" : ""));
    if (!again) return;
    Utilities.sleep(RETRY_WAITS_MS[attempt]);
  }
}

/** One answer: the question's id, title and type, and the response as Apps Script gives it. */
function answerOf(itemResponse) {
  var item = itemResponse.getItem();
  var type = typeName(item.getType());
  var answer = { itemId: item.getId(), title: item.getTitle(), type: type, value: itemResponse.getResponse() };
  if (type === "GRID") answer.rows = item.asGridItem().getRows();
  if (type === "CHECKBOX_GRID") answer.rows = item.asCheckboxGridItem().getRows();
  return answer;
}

/** The FormApp.ItemType's name ("TEXT", "CHECKBOX" …). */
function typeName(type) {
  for (var i = 0; i < QUESTION_TYPES.length; i++) {
    if (type === FormApp.ItemType[QUESTION_TYPES[i]]) return QUESTION_TYPES[i];
  }
  return String(type);
}
`;
}
