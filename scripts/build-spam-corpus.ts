// Writes the measured corpus of issue 42: lib/spam/corpus/real.json (real-looking leads,
// their names from the held-out part of faker's name lists, which the name model never
// saw) and lib/spam/corpus/spam.json (form spam of the shapes the sources describe).
// Deterministic: the same seed writes the same files.
// Run: npx tsx scripts/build-spam-corpus.ts
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { allLocales, Faker, type LocaleDefinition } from "@faker-js/faker";
import disposableDomains from "disposable-email-domains-js";
import { foldLatin } from "../lib/spam/name-words";
import type { SpamContext, SpamSubmission } from "../lib/spam/spam-verdict";
import { fakerNames, type LocaleNames } from "./faker-names";
import { seededRandom } from "./seeded-random";
import * as words from "./spam-corpus-text";

export type CorpusEntry = { shape: string; submission: SpamSubmission; context?: SpamContext };

const OUT = path.resolve(import.meta.dirname, "../lib/spam/corpus");
const REAL_COUNT = 2400;
const SEED = 42;
const random = seededRandom(SEED);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const chance = (p: number) => random() < p;
const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));

// Family name first, as people there write it.
const FAMILY_FIRST = new Set(["zh_CN", "zh_TW", "ja", "ko", "vi", "hu"]);
const UNSPACED = new Set(["zh_CN", "zh_TW", "ja"]);

const fakers = new Map<string, Faker>();
function fakerFor(locale: string): Faker {
  let faker = fakers.get(locale);
  if (!faker) {
    const chain = [allLocales[locale as keyof typeof allLocales], allLocales.en, allLocales.base] as LocaleDefinition[];
    faker = new Faker({ locale: chain, seed: SEED });
    fakers.set(locale, faker);
  }
  return faker;
}

const slug = (text: string) =>
  foldLatin(
    text
      .split(/[\s,&.()-]+/)
      .slice(0, 2)
      .join(""),
  );

function fill(template: string, values: { company: string; link: string }): string {
  return template
    .replaceAll("{company}", values.company)
    .replaceAll("{product}", pick(words.PRODUCTS))
    .replaceAll("{n}", String(int(2, 400)))
    .replaceAll("{link}", values.link);
}

function personName(names: LocaleNames) {
  const first = pick(names.first);
  const last = pick(names.last);
  const separator = UNSPACED.has(names.locale) ? "" : " ";
  const name = FAMILY_FIRST.has(names.locale) ? `${last}${separator}${first}` : `${first} ${last}`;
  return { first, last, name };
}

function realLead(names: LocaleNames, index: number): CorpusEntry {
  const faker = fakerFor(names.locale);
  const person = personName(names);
  const organization = chance(0.15) ? pick(words.COMPANY_SHAPES) : chance(0.75) ? faker.company.name() : undefined;
  const companyDomain = `${slug(organization ?? person.last) || `company${index}`}.${pick(words.COMPANY_TLDS)}`;
  const local = foldLatin(person.first) || pick(["info", "contact", "office", "sales"]);
  const business = organization !== undefined && chance(0.6);
  const email = `${local}${business ? "" : int(1, 999)}@${business ? companyDomain : pick(words.FREE_MAIL)}`;
  const submission: SpamSubmission = { email, senderIp: `198.51.100.${int(1, 254)}` };
  if (chance(0.7)) submission.name = person.name;
  else Object.assign(submission, { first_name: person.first, last_name: person.last });
  if (organization) submission.organization = organization;
  if (chance(0.6)) submission.phone = faker.phone.number();
  const extraFields: Record<string, string | string[]> = {};
  if (chance(0.6)) {
    const link = `https://${chance(0.5) ? "www." : ""}${companyDomain}${chance(0.3) ? "/about" : ""}`;
    extraFields[pick(["message", "comments", "Nachricht", "your_question"])] = fill(pick(words.HONEST_MESSAGES), {
      company: organization ?? "our company",
      link,
    });
  }
  if (chance(0.3)) extraFields.budget = pick(words.BUDGETS);
  if (chance(0.3)) extraFields.heard_from = pick(words.HEARD_FROM);
  if (chance(0.2)) extraFields["interests"] = [pick(words.INTERESTS), pick(words.INTERESTS)];
  if (chance(0.01))
    extraFields.message = `We already use ${companyDomain}; our docs are at https://docs.${companyDomain} and the shop at https://shop.${companyDomain}.`;
  if (Object.keys(extraFields).length) submission.extraFields = extraFields;
  return { shape: names.locale, submission };
}

function token(min: number, max: number): string {
  const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  return Array.from({ length: int(min, max) }, () => pick([...letters])).join("");
}

const spamLink = () => `https://${pick(words.SPAM_LINK_HOSTS)}/${token(4, 8)}`;
const spammerName = (names: LocaleNames[]) => personName(pick(names)).name;
const freeMail = (local: string) => `${local}@${pick(words.FREE_MAIL)}`;
const message = (templates: readonly string[]) => fill(pick(templates), { company: "your company", link: "" }).replace(/\{link\}/g, "");
const withLinks = (templates: readonly string[]) => pick(templates).replace(/\{link\}/g, spamLink);

const DISPOSABLE = [...disposableDomains.disposableEmailBlocklistSet()].filter((domain) => !domain.includes("gmail")).sort();

/** Each shape and how many of the spam submissions take it. */
function spamShapes(names: LocaleNames[]): [string, number, () => CorpusEntry["submission"] | CorpusEntry][] {
  return [
    [
      "random_token_name",
      90,
      () => ({ name: token(10, 16), email: freeMail(token(8, 12).toLowerCase()), extraFields: { message: token(12, 30) } }),
    ],
    [
      "random_token_first_last",
      40,
      () => ({
        first_name: token(8, 14),
        last_name: token(8, 14),
        organization: chance(0.5) ? token(8, 14) : "google",
        email: freeMail(token(8, 12)),
      }),
    ],
    [
      "url_as_name",
      60,
      () => ({
        name: pick([
          `${spamLink()}`,
          `www.${pick(words.SPAM_LINK_HOSTS)}`,
          `Claim your bonus at ${pick(words.SPAM_LINK_HOSTS)}`,
          pick(words.SPAM_LINK_HOSTS),
        ]),
        email: freeMail(token(6, 10).toLowerCase()),
      }),
    ],
    ["email_in_name", 20, () => ({ name: `Contact me: ${token(6, 9).toLowerCase()}@${pick(words.FREE_MAIL)}`, email: freeMail("info") })],
    [
      "markup_in_name",
      25,
      () => ({
        name: chance(0.5) ? `<a href="${spamLink()}">Win</a>` : `[url=${spamLink()}]Free money[/url]`,
        email: freeMail(token(6, 9).toLowerCase()),
      }),
    ],
    [
      "disposable_address",
      90,
      () => ({
        name: spammerName(names),
        email: `${token(6, 10).toLowerCase()}@${pick(DISPOSABLE)}`,
        extraFields: { message: message(words.HONEST_MESSAGES) },
      }),
    ],
    [
      "bbcode_message",
      60,
      () => ({
        name: spammerName(names),
        email: freeMail(token(6, 9).toLowerCase()),
        extraFields: { message: `Nice site! [url=${spamLink()}]cheap viagra[/url] [url=${spamLink()}]casino[/url]` },
      }),
    ],
    [
      "html_message",
      60,
      () => ({
        name: spammerName(names),
        email: freeMail(token(6, 9).toLowerCase()),
        extraFields: { comments: `Great post! <a href="${spamLink()}">best loans</a>` },
      }),
    ],
    [
      "seo_backlink_offer",
      70,
      () => ({
        name: spammerName(names),
        email: `${token(4, 6).toLowerCase()}@seo-experts-agency.com`,
        extraFields: { message: withLinks(words.SEO_OFFERS) },
      }),
    ],
    [
      "crypto_offer",
      50,
      () => ({
        name: spammerName(names),
        email: freeMail(token(6, 9).toLowerCase()),
        extraFields: { message: withLinks(words.CRYPTO_OFFERS) },
      }),
    ],
    [
      "saw_your_website",
      45,
      () => ({
        name: spammerName(names),
        email: freeMail(token(6, 9).toLowerCase()),
        extraFields: { message: withLinks(words.SAW_YOUR_WEBSITE) },
      }),
    ],
    [
      "burst_from_sender",
      30,
      () => ({
        submission: {
          name: spammerName(names),
          email: freeMail(token(6, 9).toLowerCase()),
          senderIp: "203.0.113.66",
          extraFields: { message: message(words.HONEST_MESSAGES) },
        },
        context: { recentFromAddress: 0, recentFromSender: int(11, 60), burstLimit: 10 },
        shape: "burst_from_sender",
      }),
    ],
    [
      "one_link_pitch",
      15,
      () => ({
        name: spammerName(names),
        email: freeMail(token(6, 9).toLowerCase()),
        extraFields: { message: withLinks(words.ONE_LINK_PITCHES) },
      }),
    ],
  ];
}

const { train, heldOut } = fakerNames();
const usable = heldOut.filter((names) => names.first.length && names.last.length);
const real = Array.from({ length: REAL_COUNT }, (_, index) => realLead(usable[index % usable.length]!, index));
const spam: CorpusEntry[] = spamShapes(train.filter((names) => names.first.length && names.last.length)).flatMap(([shape, count, make]) =>
  Array.from({ length: count }, () => {
    const made = make();
    return "submission" in made ? (made as CorpusEntry) : { shape, submission: made };
  }),
);

mkdirSync(OUT, { recursive: true });
// One entry a line: small, and a rebuild's diff shows which entries changed.
const lines = (entries: CorpusEntry[]) => `[\n${entries.map((entry) => JSON.stringify(entry)).join(",\n")}\n]\n`;
writeFileSync(path.join(OUT, "real.json"), lines(real));
writeFileSync(path.join(OUT, "spam.json"), lines(spam));
console.log(`${real.length} real leads from ${usable.length} locales, ${spam.length} spam submissions`);
