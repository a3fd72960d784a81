import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";

// Settings → Spam at intake (issue 42; docs/spam.md "Settings"): what a team sets is what the
// next submission meets, through create_lead's (a key with the checks on) and a web form's use
// cases on a real database. Each of a blocked word, a blocked domain, a blocked IP range and
// "business addresses only" sends to the quarantine a submission the same team kept before
// the change; an allowed address wins over a spam name; a change made after a submission (the
// lists' per-process copy, the threshold, the burst limit) holds from the next one.
process.env.FORM_CHALLENGE_COST = "1";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { createApiKey } = await import("../api-keys/api-key-changes");
const { db } = await import("../db/client");
const { sendCreateLead } = await import("./create-lead.fixtures");
const { newForm, post } = await import("../web-forms/web-forms.fixtures");
const { addSpamListValues, removeSpamListValue } = await import("../spam/spam-list-changes");
const { listSpamListEntries } = await import("../spam/spam-list-store");
const { saveSpamSettings, SPAM_SETTINGS_DEFAULTS } = await import("../spam/spam-settings");

mock.method(process.stderr, "write", () => true);

type Fields = Record<string, string>;
type Send = (fields: Fields, ip?: string) => Promise<string>;
const actor = { userId: null, ip: null, via: "cli" } as const;

/** The lead id a channel answered with: 201 for a new lead (or a quarantined submission), 200 for a repeat. */
async function leadIdOf(channel: string, response: Response): Promise<string> {
  assert.ok(response.status === 201 || response.status === 200, `${channel} answered ${response.status}`);
  return ((await response.json()) as { lead_id: string }).lead_id;
}

/** A team with a web form and a key that runs the checks; each channel sends and gives the lead id answered. */
async function setUp(): Promise<{ teamId: string; channels: [string, Send][] }> {
  const { team, formId } = await newForm({ challenge: false });
  const key = await createApiKey({ teamId: team.id, description: "Site" });
  await db().apiKey.update({ where: { id: key.keyId }, data: { spamChecks: true } });
  const viaKey: Send = async (fields, ip) => leadIdOf("create_lead", await sendCreateLead(key, fields, { ip }));
  const viaForm: Send = async (fields, ip) => leadIdOf("the web form", await post(formId, fields, ip ? { ip } : {}));
  return {
    teamId: team.id,
    channels: [
      ["create_lead", viaKey],
      ["web form", viaForm],
    ],
  };
}

/** Where a submission went, and the reasons' codes when it was quarantined. */
async function fate(leadId: string): Promise<string> {
  const quarantined = await db().quarantinedLead.findUnique({ where: { id: leadId } });
  if (quarantined) return `quarantined: ${(quarantined.reasons as { code: string }[]).map((reason) => reason.code).join(" ")}`;
  return (await db().lead.count({ where: { id: leadId } })) ? "kept" : "nowhere";
}

const addTo = async (teamId: string, list: string, text: string) => {
  const added = await addSpamListValues({ teamId, role: "admin", list, text, actor });
  assert.ok(added.ok, JSON.stringify(added));
};
const settle = async (teamId: string, changes: Partial<typeof SPAM_SETTINGS_DEFAULTS>) => {
  const saved = await saveSpamSettings({ teamId, role: "owner", input: { ...SPAM_SETTINGS_DEFAULTS, ...changes }, actor });
  assert.ok(saved.ok, JSON.stringify(saved));
};

let people = 0;
const person = (domain = "example.com") => ({ name: "Ada Lovelace", email: `ada.${++people}@${domain}` });

const CASES: { name: string; change: (teamId: string) => Promise<void>; submission: () => Fields; ip?: string; code: string }[] = [
  {
    name: "a blocked word",
    change: (teamId) => addTo(teamId, "blocked_word", "Backlinks"),
    submission: () => ({ ...person(), message: "Do you need quality BACKLINKS for your site?" }),
    code: "blocked_word",
  },
  {
    name: "a blocked e-mail domain (a subdomain's address too)",
    change: (teamId) => addTo(teamId, "blocked_email_domain", "offers.example"),
    submission: () => person("mail.offers.example"),
    code: "blocked_email",
  },
  {
    name: "a blocked IP range (CIDR)",
    change: (teamId) => addTo(teamId, "blocked_ip", "192.0.2.0/24"),
    submission: () => person(),
    ip: "192.0.2.77",
    code: "blocked_ip",
  },
  {
    name: "business addresses only",
    change: (teamId) => settle(teamId, { businessOnly: true }),
    submission: () => person("gmail.com"),
    code: "free_email",
  },
];

describe("each team setting quarantines a submission the team kept before it", () => {
  for (const { name, change, submission, ip, code } of CASES) {
    test(name, async () => {
      const { teamId, channels } = await setUp();
      for (const [channel, send] of channels) assert.equal(await fate(await send(submission(), ip)), "kept", `${channel}, before`);
      await change(teamId);
      for (const [channel, send] of channels) assert.equal(await fate(await send(submission(), ip)), `quarantined: ${code}`, channel);
      assert.equal(await db().lead.count({ where: { teamId } }), 2, "the two kept before the change");
    });
  }
});

test("an allowed address wins over a spam name; an allowed domain too", async () => {
  const { teamId, channels } = await setUp();
  const spam = (email: string) => ({ name: "Cheap SEO http://seo-offer.example", email });
  for (const [channel, send] of channels) {
    assert.equal(await fate(await send(spam("friend@partner.example"))), "quarantined: link_in_name", `${channel}, before`);
  }
  await addTo(teamId, "allow_email", "Friend@Partner.example");
  await addTo(teamId, "allow_email_domain", "customer.example");
  for (const [channel, send] of channels) {
    assert.equal(await fate(await send(spam("friend@partner.example"))), "kept", `${channel}, the address`);
    assert.equal(await fate(await send(spam("someone@eu.customer.example"))), "kept", `${channel}, the domain`);
    assert.equal(await fate(await send(spam("other@partner.example"))), "quarantined: link_in_name", `${channel}, another address`);
  }
});

test("a change after a first submission holds from the next: the lists' copy is read again, the threshold and burst at once", async () => {
  const { teamId, channels } = await setUp();
  const pitch = () => ({ ...person(), message: "We sell backlinks" });
  await addTo(teamId, "blocked_word", "casino");
  for (const [channel, send] of channels) assert.equal(await fate(await send(pitch())), "kept", `${channel}: lists read at version 1`);
  await addTo(teamId, "blocked_word", "backlinks");
  for (const [channel, send] of channels) assert.equal(await fate(await send(pitch())), "quarantined: blocked_word", channel);
  const entry = (await listSpamListEntries(teamId)).find((e) => e.value === "backlinks")!;
  assert.deepEqual(await removeSpamListValue({ teamId, role: "owner", id: entry.id, actor }), { ok: true });
  for (const [channel, send] of channels) assert.equal(await fate(await send(pitch())), "kept", `${channel}: removed`);

  // Digits in a name: 5 points, under the default threshold; at 5 it is spam.
  const weak = () => ({ name: "Ivan1985 Petrov", email: `ivan.${++people}@example.com` });
  for (const [channel, send] of channels) assert.equal(await fate(await send(weak())), "kept", `${channel}: threshold 10`);
  await settle(teamId, { threshold: 5 });
  for (const [channel, send] of channels)
    assert.equal(await fate(await send(weak())), "quarantined: random_name", `${channel}: threshold 5`);
});

test("the burst limit: more than N leads in M minutes from one address; 0 turns the check off", async () => {
  const { teamId, channels } = await setUp();
  const [, viaKey] = channels[0]!;
  const same = { name: "Grace Hopper", email: "grace@example.com" };
  await settle(teamId, { burstLimit: 2, burstMinutes: 60 });
  assert.deepEqual(
    [await fate(await viaKey(same)), await fate(await viaKey(same)), await fate(await viaKey(same))],
    ["kept", "kept", "quarantined: burst"],
  );
  await settle(teamId, { burstLimit: 0, burstMinutes: 60 });
  assert.equal(await fate(await viaKey(same)), "kept");
});
