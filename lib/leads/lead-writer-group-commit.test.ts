import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type Database from "better-sqlite3";
import fc from "fast-check";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { driver } from "../db/driver";
import { leadWriterUtilization, SATURATED } from "../operations/intake-activity";
import { resolveLeadSource } from "../teams/lead-sources";
import { createTeam } from "../teams/team-store";
import { writeLead, type LeadWrite } from "./lead-writer";
import { leadFieldsOf, storableOn } from "./lead-writer.fixtures";

// Group commit (lib/leads/lead-writer.ts): leads written together commit together, each in its
// own savepoint, so a refused lead undoes nothing of the others and takes no id (SQLite; on
// PostgreSQL its number is a gap): one commit on SQLite (one writer), at most two on PostgreSQL.

const database = await useTestDatabase();
const team = await createTeam({ slug: "group-commit", name: "Group commit" });
const source = await resolveLeadSource(team.id);
const storable = storableOn(database.provider);
const fields = fc.sample(leadFieldsOf(team.id).filter(storable), 40);

const write = (i: number, lost = false): LeadWrite => ({
  lead: fields[i]!,
  source: { chosen: source },
  requestLog: { apiKeyId: null, formId: null, ip: "192.0.2.1", encoding: "json" },
  events: { origin: { apiKeyId: null }, emails: false },
  now: new Date(),
  claim: lost
    ? { id: "no-such-claim", token: "t", response: () => ({ status: 201, body: "{}" }), lost: () => new Error(`claim ${i} lost`) }
    : null,
});

describe("group commit", () => {
  test("20 leads sent together: the one whose claim is lost fails alone; the 19 others are stored with consecutive ids (but the refused one's gap on PostgreSQL) and their log rows", async () => {
    const d = await driver();
    let commits = 0;
    const run = d.provider === "sqlite" ? d.run : null;
    const connect = d.provider === "postgres" ? d.pool.connect : null;
    if (d.provider === "sqlite") {
      const counted = <T>(work: (connection: Database.Database) => T): Promise<T> => {
        commits++;
        return run!.call(d, work) as Promise<T>;
      };
      d.run = counted;
    } else {
      // The writer checks a client out itself (no callback); pool.query's own checkouts pass one.
      const counted = (...args: unknown[]) => {
        if (!args.length) commits++;
        return (connect as (...a: unknown[]) => unknown).apply(d.pool, args);
      };
      d.pool.connect = counted as typeof d.pool.connect;
    }
    try {
      const settled = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => writeLead(write(i, i === 7))));
      const refused = settled.flatMap((s, i) => (s.status === "rejected" ? [[i, String(s.reason)]] : []));
      assert.deepEqual(refused, [[7, "Error: claim 7 lost"]]);
      const ids = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value.leadId] : []));
      const stored = await db().lead.findMany({ where: { id: { in: ids } }, select: { seq: true }, orderBy: { seq: "asc" } });
      assert.equal(stored.length, 19);
      // SQLite gives the refused lead's number back; PostgreSQL's sequence leaves its gap (docs/api.md "Lead ids").
      const span = stored.at(-1)!.seq - stored[0]!.seq;
      if (d.provider === "sqlite") assert.equal(span, 18, "no id was taken by the refused lead");
      else assert.ok(span === 18 || span === 19, `the 19 span ${span + 1} numbers: at most the refused one's gap`);
      assert.equal(await db().apiRequest.count({ where: { leadId: { in: ids } } }), 19);
      assert.equal(await db().apiRequest.count({ where: { teamId: team.id } }), 19, "no log row for the refused lead");
      // Sent in one turn of the event loop: one commit on SQLite; on PostgreSQL the first
      // batch may start before the others arrive, and a second takes what is left.
      if (d.provider === "sqlite") assert.equal(commits, 1, "one commit for the 20");
      else assert.ok(commits <= 2, `at most two transactions for the 20, not ${commits}`);
    } finally {
      if (d.provider === "sqlite") d.run = run!;
      else d.pool.connect = connect!;
    }
  });

  test("more leads than one commit holds are all written, in more than one commit", async () => {
    const before = await db().lead.count({ where: { teamId: team.id } });
    const many = Array.from({ length: 150 }, (_, i) => writeLead(write(i % fields.length)));
    assert.equal((await Promise.all(many)).length, 150);
    assert.equal(await db().lead.count({ where: { teamId: team.id } }), before + 150);
  });

  test("while every commit slot is taken the writer reports itself full (the dispatcher gives way to it); once they are free it does not", async () => {
    // Each commit held 400 ms before it starts, so the slots stay taken for a measured window:
    // SQLite's one, and PostgreSQL's two (two batches: the second sent a turn after the first).
    const d = await driver();
    const hold = () => new Promise((resolve) => setTimeout(resolve, 400));
    const run = d.provider === "sqlite" ? d.run : null;
    const connect = d.provider === "postgres" ? d.pool.connect : null;
    if (d.provider === "sqlite") d.run = (async (work: Parameters<typeof d.run>[0]) => (await hold(), run!.call(d, work))) as typeof d.run;
    else {
      // The writer checks a client out itself (no callback); pool.query's own checkouts pass one.
      d.pool.connect = (async (...args: unknown[]) => {
        if (!args.length) await hold();
        return (connect as (...a: unknown[]) => unknown).apply(d.pool, args);
      }) as typeof d.pool.connect;
    }
    try {
      // A window is measured from the last sample at least 250 ms old: wait that long, so that
      // this sample starts a window of this test's own (the earlier tests' commits left out).
      await new Promise((resolve) => setTimeout(resolve, 260));
      leadWriterUtilization();
      const first = writeLead(write(0));
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      const second = writeLead(write(1));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const full = leadWriterUtilization();
      assert.ok(full >= SATURATED, `every slot taken for the window: ${full}`);
      await Promise.all([first, second]);
    } finally {
      if (d.provider === "sqlite") d.run = run!;
      else d.pool.connect = connect!;
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    leadWriterUtilization();
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(leadWriterUtilization(), 0, "no commit under way: the slots are free");
  });
});
