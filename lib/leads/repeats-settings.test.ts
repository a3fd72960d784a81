import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { CLI_ACTOR, type AuditActor } from "../audit/audit-log";
import { createConnection, setConnectionRepeats } from "../connections/connection-changes";
import { findConnection, listConnections } from "../connections/connection-store";
import { db } from "../db/client";
import { parseRepeatWindowDays } from "../teams/repeat-window";
import { updateGeneralSettings } from "../teams/team-changes";
import { createTeam, teamRepeatWindow } from "../teams/team-store";
import { createWebForm, setWebFormRepeats } from "../web-forms/web-form-changes";
import { findWebForm, listWebForms } from "../web-forms/web-form-store";
import { parseRepeatsChoice, REPEATS_REFUSED } from "./repeats-choice";

// The settings side of issue 41 (docs/leads.md "Repeat submissions"): what a web form's and
// a connection's repeat setting starts at and how it changes, audited; the refusal of a value
// that is not one of the two; the team's repeat window, its bounds and its audit event. API
// keys: api-key-management.test.ts; the CLIs: scripts/repeats-cli.test.ts.

await useTestDatabase();

let teams = 0;
const makeTeam = () => createTeam({ slug: `repeats-${++teams}`, name: `Repeats ${teams}` });
const admin: AuditActor = { userId: null, ip: "198.51.100.9", via: "web" };
const settings = { name: "Contact", allowedOrigins: ["https://www.example.com"], sourceId: null, successUrl: null, challenge: false };
const auditOf = async (teamId: string, action: string) =>
  (await db().auditEvent.findMany({ where: { teamId, action }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).map((e) => [
    e.targetId,
    e.details,
  ]);

describe("the choice a page sends", () => {
  test("add and new are taken; anything else is refused with words, not an error", () => {
    assert.deepEqual(parseRepeatsChoice("add"), { repeats: "add" });
    assert.deepEqual(parseRepeatsChoice("new"), { repeats: "new" });
    for (const forged of ["", "ADD", " add", "merge", null, undefined, 1, ["add"], { repeats: "add" }]) {
      assert.deepEqual(parseRepeatsChoice(forged), { problem: REPEATS_REFUSED }, JSON.stringify(forged));
    }
  });
});

describe("a web form's repeat setting", () => {
  test("a new form adds a repeat to the person's lead unless told otherwise", async () => {
    const team = await makeTeam();
    const plain = await createWebForm({ teamId: team.id, settings, createdById: null, actor: admin });
    const fresh = await createWebForm({
      teamId: team.id,
      settings: { ...settings, name: "Fresh" },
      repeats: "new",
      createdById: null,
      actor: admin,
    });
    assert.equal((await findWebForm({ teamId: team.id, formId: plain }))!.repeats, "add");
    assert.deepEqual(
      (await listWebForms(team.id)).map((f) => [f.name, f.repeats]),
      [
        ["Contact", "add"],
        ["Fresh", "new"],
      ],
    );
    assert.deepEqual(await auditOf(team.id, "web_form.created"), [
      [plain, { name: "Contact", repeats: "add", spamChecks: true }],
      [fresh, { name: "Fresh", repeats: "new", spamChecks: true }],
    ]);
  });

  test("a change is a web_form.updated event with the new value, once; another team's form is not found", async () => {
    const [team, other] = [await makeTeam(), await makeTeam()];
    const formId = await createWebForm({ teamId: team.id, settings, createdById: null, actor: admin });
    assert.equal(await setWebFormRepeats({ teamId: other.id, formId, repeats: "new", actor: admin }), false);
    assert.equal(await setWebFormRepeats({ teamId: team.id, formId, repeats: "new", actor: admin }), true);
    assert.equal(await setWebFormRepeats({ teamId: team.id, formId, repeats: "new", actor: admin }), true, "no change, no event");
    assert.equal((await findWebForm({ teamId: team.id, formId }))!.repeats, "new");
    assert.deepEqual(await auditOf(team.id, "web_form.updated"), [[formId, { name: "Contact", repeats: "new" }]]);
    assert.deepEqual(await auditOf(other.id, "web_form.updated"), []);
  });

  test("a form made before issue 41 keeps the database's default, new", async () => {
    const team = await makeTeam();
    await db().webForm.create({ data: { id: "form_AAAAAAAAAAAAAAAA", teamId: team.id, ...settings } });
    assert.equal((await findWebForm({ teamId: team.id, formId: "form_AAAAAAAAAAAAAAAA" }))!.repeats, "new");
  });
});

describe("a connection's repeat setting", () => {
  test("a new connection adds a repeat to the person's lead unless told otherwise", async () => {
    const team = await makeTeam();
    const plain = await createConnection({ teamId: team.id, builder: "generic", createdById: null, actor: admin });
    const fresh = await createConnection({
      teamId: team.id,
      builder: "tally",
      name: "Fresh",
      repeats: "new",
      createdById: null,
      actor: admin,
    });
    assert.deepEqual(
      (await listConnections(team.id)).map((c) => [c.id, c.repeats]),
      [
        [plain.id, "add"],
        [fresh.id, "new"],
      ],
    );
    assert.deepEqual(await auditOf(team.id, "connection.created"), [
      [plain.id, { name: "Generic JSON", builder: "generic", repeats: "add", spamChecks: true }],
      [fresh.id, { name: "Fresh", builder: "tally", repeats: "new", spamChecks: true }],
    ]);
  });

  test("a change is audited once, with what it was and is; another team's connection is not found", async () => {
    const [team, other] = [await makeTeam(), await makeTeam()];
    const { id } = await createConnection({ teamId: team.id, builder: "generic", name: "Site", createdById: null, actor: admin });
    assert.equal(await setConnectionRepeats({ teamId: other.id, id, repeats: "new", actor: admin }), false);
    assert.equal(await setConnectionRepeats({ teamId: team.id, id, repeats: "new", actor: admin }), true);
    assert.equal(await setConnectionRepeats({ teamId: team.id, id, repeats: "new", actor: CLI_ACTOR }), true, "no change, no event");
    assert.equal(await setConnectionRepeats({ teamId: team.id, id, repeats: "add", actor: CLI_ACTOR }), true);
    assert.equal((await findConnection({ teamId: team.id, id }))!.repeats, "add");
    assert.deepEqual(await auditOf(team.id, "connection.repeats_set"), [
      [id, { name: "Site", from: "add", to: "new" }],
      [id, { name: "Site", from: "new", to: "add" }],
    ]);
    assert.deepEqual(await auditOf(other.id, "connection.repeats_set"), []);
  });
});

describe("the team's repeat window", () => {
  test("whole days from 0 (never) to 3650 are taken; anything else is refused", () => {
    for (const [given, days] of [
      ["0", 0],
      ["3650", 3650],
      [" 365 ", 365],
      ["1", 1],
      [30, 30],
    ] as const) {
      assert.deepEqual(parseRepeatWindowDays(given), { days }, String(given));
    }
    for (const given of ["-1", "3651", "1.5", "7.0", "1e2", "", " ", "abc", "0x10", null, undefined, -1, 3651, 2.5, "99999999"]) {
      assert.ok("problem" in parseRepeatWindowDays(given), String(given));
    }
    assert.deepEqual(parseRepeatWindowDays("-1"), { problem: "Enter a whole number of days from 0 (never) to 3,650." });
  });

  test("a team starts at 365 days; a change is saved with the general settings and audited, once", async () => {
    const team = await makeTeam();
    assert.equal(await teamRepeatWindow(team.id), 365);
    const save = (repeatWindowDays: number) =>
      updateGeneralSettings({ teamId: team.id, name: " Renamed ", defaultPhoneCountry: "de", repeatWindowDays, actor: admin });
    await save(0);
    await save(0);
    await save(3650);
    const row = await db().team.findUniqueOrThrow({ where: { id: team.id } });
    assert.deepEqual([row.name, row.defaultPhoneCountry, row.repeatWindowDays], ["Renamed", "DE", 3650]);
    assert.deepEqual(await auditOf(team.id, "team.repeat_window_set"), [
      [team.id, { from: 365, to: 0 }],
      [team.id, { from: 0, to: 3650 }],
    ]);
  });
});
