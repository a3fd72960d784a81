import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { createApiKey, takeSecretForCopy } from "../api-keys/api-key-changes";
import { db } from "../db/client";
import { createLead } from "./create-lead";
import { parseLeadInput } from "./parse-lead-input";
import { changeMembership } from "../teams/membership-changes";
import { addMember, createTeam } from "../teams/team-store";

// The lead writer (lib/leads/lead-writer.ts) in one process with Prisma: a hot-path create
// sent while a Prisma transaction is open commits on its own and survives that
// transaction's rollback, and creates interleaved with role changes, key copies and
// rolled-back transactions all finish and stay (SQLite: one connection, one lock).

await useTestDatabase();

describe("one process: hot-path creates and Prisma transactions never wait on each other", () => {
  test("a create sent while a Prisma transaction is open commits on its own: it survives that transaction's rollback", async () => {
    const lone = await createTeam({ slug: "hot-path-lone", name: "Lone" });
    let opened!: () => void;
    const open = new Promise<void>((resolve) => (opened = resolve));
    let creates: Promise<string[]> | null = null;
    await db()
      .$transaction(async (tx) => {
        await tx.auditEvent.create({ data: { teamId: lone.id, action: "test.rolled_back", via: "cli" } });
        opened();
        // The creates start while this transaction holds the connection and the write lock.
        creates = Promise.all(
          [1, 2, 3].map(
            async (i) =>
              (
                await createLead({
                  team: { id: lone.id, defaultPhoneCountry: null },
                  apiKeyId: null,
                  input: parseLeadInput([["name", `Lone ${i}`]]),
                })
              ).leadId,
          ),
        );
        await new Promise((resolve) => setTimeout(resolve, 50));
        throw new Error("rolled back on purpose");
      })
      .catch((error: unknown) => assert.match(String(error), /rolled back on purpose/));
    await open;
    const ids = await creates!;
    assert.equal(await db().lead.count({ where: { id: { in: ids } } }), 3, "every acknowledged lead is stored");
    assert.equal(await db().auditEvent.count({ where: { teamId: lone.id } }), 0);
  });

  test("creates interleaved with role changes, key copies and rolled-back transactions all finish, and every create stays (SQLite: one connection, one lock)", async () => {
    const busy = await createTeam({ slug: "hot-path-busy", name: "Busy" });
    const users = await Promise.all(
      Array.from({ length: 6 }, (_, i) => db().user.create({ data: { email: `busy-${i}@example.com`, passwordHash: "x" } })),
    );
    for (const user of users) await addMember({ teamId: busy.id, userId: user.id, role: "member" });
    await addMember({
      teamId: busy.id,
      userId: (await db().user.create({ data: { email: "owner-busy@example.com", passwordHash: "x" } })).id,
      role: "owner",
    });
    const keys = await Promise.all(Array.from({ length: 10 }, () => createApiKey({ teamId: busy.id })));

    // Prisma transactions that write, wait and roll back: a hot-path create that ran inside
    // one (the same connection without the adapter's lock would join it as a savepoint)
    // would vanish with it.
    const rolledBack = (i: number) =>
      db()
        .$transaction(
          async (tx) => {
            await tx.auditEvent.create({ data: { teamId: busy.id, action: "test.rolled_back", via: "cli", targetId: String(i) } });
            await new Promise((resolve) => setTimeout(resolve, 2));
            throw new Error("rolled back on purpose");
          },
          { maxWait: 30_000, timeout: 30_000 },
        )
        .catch((error: unknown) => assert.match(String(error), /rolled back on purpose/));
    const created: string[] = [];
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 120; i++) {
      work.push(
        createLead({
          team: { id: busy.id, defaultPhoneCountry: null },
          apiKeyId: null,
          input: parseLeadInput([["name", `Busy ${i}`]]),
        }).then(({ leadId }) => created.push(leadId)),
      );
      if (i % 5 === 0) work.push(rolledBack(i));
      if (i % 20 === 0) {
        const user = users[i / 20]!;
        work.push(changeMembership({ teamId: busy.id, userId: user.id, role: "admin" }));
      }
      if (i % 12 === 0) {
        const key = keys[i / 12]!;
        work.push(
          takeSecretForCopy({ keyId: key.keyId, teamId: busy.id, userId: null }).then((secret) => assert.equal(secret, key.secret)),
        );
      }
    }
    const settled = await Promise.allSettled(work);
    const failed = settled.flatMap((s) => (s.status === "rejected" ? [String(s.reason)] : []));
    assert.deepEqual(failed, []);
    assert.equal(created.length, 120);
    assert.equal(await db().lead.count({ where: { id: { in: created } } }), 120, "every acknowledged lead is stored");
    assert.equal(await db().auditEvent.count({ where: { teamId: busy.id, action: "test.rolled_back" } }), 0);
    assert.equal(await db().membership.count({ where: { teamId: busy.id, role: "admin" } }), 6);
    assert.equal(await db().apiKey.count({ where: { teamId: busy.id, copiedAt: { not: null } } }), 10);
  });
});
