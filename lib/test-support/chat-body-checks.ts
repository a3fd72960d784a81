import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import type { ChatPlatform } from "../chat/chat-platforms";

// What each chat platform's documentation says its incoming webhook accepts (shape and
// limits; docs/notifications.md names the pages), as the local fakes (chat-fakes.ts) check
// every body they receive, and what a lead's value must never become in it (a mention, a
// link or markup): the property of lib/chat/chat-bodies.test.ts. A body the platform would
// refuse gets a list of problems; an empty list is a body it accepts.

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const str = (value: unknown) => (typeof value === "string" ? value : "");
const arr = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const bytes = (body: unknown) => Buffer.byteLength(JSON.stringify(body), "utf8");

function checkSlack(body: unknown): string[] {
  const problems: string[] = [];
  if (!isObject(body)) return ["not an object"];
  if (str(body.text).length > 40_000) problems.push("text over 40,000 characters");
  const blocks = arr(body.blocks);
  if (blocks.length > 50) problems.push("more than 50 blocks");
  const textObject = (value: unknown, max: number, where: string, plainOnly = false) => {
    if (!isObject(value) || !["plain_text", "mrkdwn"].includes(str(value.type)) || (plainOnly && value.type !== "plain_text")) {
      problems.push(`${where}: not a ${plainOnly ? "plain_text" : "text"} object`);
      return;
    }
    const text = str(value.text);
    if (text.length < 1 || text.length > max) problems.push(`${where}: text of ${text.length} characters (1–${max})`);
  };
  blocks.forEach((block, i) => {
    if (!isObject(block)) return problems.push(`block ${i}: not an object`);
    if (block.type === "header") textObject(block.text, 150, `block ${i} header`, true);
    else if (block.type === "section") {
      if (block.text === undefined && block.fields === undefined) problems.push(`block ${i}: a section needs text or fields`);
      if (block.text !== undefined) textObject(block.text, 3000, `block ${i} section`);
      const fields = arr(block.fields);
      if (fields.length > 10) problems.push(`block ${i}: more than 10 fields`);
      fields.forEach((field, j) => textObject(field, 2000, `block ${i} field ${j}`));
    } else if (block.type === "actions") {
      const elements = arr(block.elements);
      if (elements.length < 1 || elements.length > 25) problems.push(`block ${i}: 1–25 elements`);
      elements.forEach((element, j) => {
        if (!isObject(element) || element.type !== "button") return problems.push(`block ${i} element ${j}: not a button`);
        textObject(element.text, 75, `block ${i} button ${j}`, true);
        if (str(element.url).length > 3000) problems.push(`block ${i} button ${j}: url over 3,000`);
      });
    } else problems.push(`block ${i}: unknown type ${str(block.type)}`);
  });
  return problems;
}

function checkSlackCompatible(body: unknown): string[] {
  if (!isObject(body) || typeof body.text !== "string") return ["no text"];
  return body.text.length > 5000 ? [`text of ${body.text.length} characters (Rocket.Chat's default 5,000)`] : [];
}

function checkDiscord(body: unknown): string[] {
  const problems: string[] = [];
  if (!isObject(body)) return ["not an object"];
  if (str(body.content).length > 2000) problems.push("content over 2,000");
  const mentions = body.allowed_mentions;
  if (!isObject(mentions) || !Array.isArray(mentions.parse)) problems.push("no allowed_mentions.parse");
  const embeds = arr(body.embeds);
  if (embeds.length > 10) problems.push("more than 10 embeds");
  if (!embeds.length && !str(body.content)) problems.push("neither content nor embeds");
  let total = 0;
  embeds.forEach((embed, i) => {
    if (!isObject(embed)) return problems.push(`embed ${i}: not an object`);
    const limit = (value: string, max: number, where: string, required = false) => {
      total += value.length;
      if (value.length > max || (required && !value.trim())) problems.push(`embed ${i} ${where}: ${value.length} characters (max ${max})`);
    };
    limit(str(embed.title), 256, "title");
    limit(str(embed.description), 4096, "description");
    const fields = arr(embed.fields);
    if (fields.length > 25) problems.push(`embed ${i}: more than 25 fields`);
    fields.forEach((field, j) => {
      const f = isObject(field) ? field : {};
      limit(str(f.name), 256, `field ${j} name`, true);
      limit(str(f.value), 1024, `field ${j} value`, true);
    });
    limit(str(isObject(embed.footer) ? embed.footer.text : ""), 2048, "footer");
  });
  if (total > 6000) problems.push(`embeds of ${total} characters (max 6,000)`);
  return problems;
}

function checkGoogleChat(body: unknown): string[] {
  const problems: string[] = [];
  if (!isObject(body)) return ["not an object"];
  if (bytes(body) > 32_000) problems.push("over 32,000 bytes");
  if (str(body.text).length > 4096) problems.push("text over 4,096");
  const cards = arr(body.cardsV2);
  if (!cards.length && !str(body.text)) problems.push("neither text nor cardsV2");
  cards.forEach((entry, i) => {
    const card = isObject(entry) && isObject(entry.card) ? entry.card : null;
    if (!isObject(entry) || !str(entry.cardId) || !card) return problems.push(`card ${i}: needs cardId and card`);
    if (card.header !== undefined && !(isObject(card.header) && str(card.header.title))) problems.push(`card ${i}: header needs a title`);
    arr(card.sections).forEach((section, j) => {
      const widgets = isObject(section) ? arr(section.widgets) : [];
      if (!widgets.length) problems.push(`card ${i} section ${j}: no widgets`);
      widgets.forEach((widget, k) => {
        const kinds = isObject(widget)
          ? Object.keys(widget).filter((key) => ["decoratedText", "textParagraph", "buttonList"].includes(key))
          : [];
        if (kinds.length !== 1) problems.push(`card ${i} widget ${k}: one of decoratedText, textParagraph, buttonList`);
        const w = widget as Json;
        if (isObject(w.decoratedText) && !str(w.decoratedText.text)) problems.push(`card ${i} widget ${k}: decoratedText needs text`);
        if (isObject(w.buttonList)) {
          for (const button of arr(w.buttonList.buttons)) {
            const url =
              isObject(button) && isObject(button.onClick) && isObject(button.onClick.openLink) ? str(button.onClick.openLink.url) : "";
            if (!url) problems.push(`card ${i} widget ${k}: a button needs onClick.openLink.url`);
          }
        }
      });
    });
  });
  return problems;
}

const schemaFile = path.join(import.meta.dirname, "../../test/fixtures/adaptive-cards/adaptive-card-1.4.0.schema.json");
let validateCard: ((card: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null };

/**
 * The Adaptive Card 1.4.0 schema, as published: draft-06, so its meta-schema is added, and
 * `strict: false` for its own keywords ("version"). Its top-level `id` is draft-04's name
 * for `$id`, which ajv 8 no longer reads: it is passed as `$id`, the file left as published.
 */
function cardValidator() {
  if (validateCard) return validateCard;
  const ajv = new Ajv({ strict: false, allErrors: true });
  // The two formats it names, checked as URLs (a reference may be relative).
  ajv.addFormat("uri", (text: string) => URL.canParse(text));
  ajv.addFormat("uri-reference", (text: string) => URL.canParse(text, "https://base.invalid/"));
  ajv.addMetaSchema(
    JSON.parse(readFileSync(path.join(import.meta.dirname, "../../node_modules/ajv/dist/refs/json-schema-draft-06.json"), "utf8")),
  );
  const { id, ...schema } = JSON.parse(readFileSync(schemaFile, "utf8")) as Record<string, unknown>;
  validateCard = ajv.compile({ $id: String(id), ...schema });
  return validateCard;
}

/**
 * Readies `platform`'s checks before a fake answers its first POST: compiling the card schema
 * takes about 0.3 s of CPU, in the process of the dispatcher whose POSTs (to this and the
 * other fakes) time out after 10 s; on a starved machine the first Teams POST of a batch
 * left another fake's POST unanswered past that (lib/chat/chat-delivery.test.ts: Discord got
 * nothing).
 */
export function prepareChatBodyChecks(platform: ChatPlatform): void {
  if (platform === "teams") cardValidator();
}

function checkTeams(body: unknown): string[] {
  const problems: string[] = [];
  if (!isObject(body) || body.type !== "message") return ["not a message"];
  if (bytes(body) > 28_000) problems.push("over 28 KB");
  const attachments = arr(body.attachments);
  if (attachments.length !== 1) problems.push("not one attachment");
  for (const attachment of attachments) {
    if (!isObject(attachment) || attachment.contentType !== "application/vnd.microsoft.card.adaptive") {
      problems.push("not an Adaptive Card attachment");
      continue;
    }
    const validate = cardValidator();
    if (!validate(attachment.content)) {
      for (const error of validate.errors ?? []) problems.push(`card${error.instancePath}: ${error.message ?? "invalid"}`);
    }
  }
  return problems;
}

/** The problems the platform would refuse `body` for; none: it is accepted. */
export function chatBodyProblems(platform: ChatPlatform, body: unknown): string[] {
  switch (platform) {
    case "slack":
      return checkSlack(body);
    case "slack-compatible":
      return checkSlackCompatible(body);
    case "discord":
      return checkDiscord(body);
    case "google-chat":
      return checkGoogleChat(body);
    case "teams":
      return checkTeams(body);
  }
}
