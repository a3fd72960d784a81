import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { deleteLeadsById } from "./delete-leads";
import { addLeadNote, deleteLeadNote, editLeadNote, MAX_NOTE_LENGTH } from "./lead-notes";
import { actorOf, lead, makeTeam } from "./lead-ownership.fixtures";
import { mergeLeads } from "./merge-leads";

// Members' notes on a lead (lib/leads/lead-notes.ts): who may write, edit and delete them,
// what is refused, the audit events (never the text), and how notes follow their lead
// (a merge moves them, a deletion takes them, a deleted author leaves them).

await useTestDatabase();

const notes = (leadId: string) =>
  db().leadNote.findMany({
    where: { leadId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, authorId: true, body: true },
  });

const noteEvents = (teamId: string) =>
  db().auditEvent.findMany({
    where: { teamId, action: { startsWith: "lead.note_" } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { action: true, actorUserId: true, targetId: true, details: true },
  });

async function added(options: Parameters<typeof addLeadNote>[0]): Promise<string> {
  const result = await addLeadNote(options);
  assert.ok(result.ok, JSON.stringify(result));
  return result.noteId;
}

describe("writing notes", () => {
  test("a member adds a note (line breaks kept, line ends and the edges tidied), audited with its id and length only", async () => {
    const { team, member } = await makeTeam();
    const id = await lead(team.id);
    const noteId = await added({
      teamId: team.id,
      leadId: id,
      body: "  Called at 10.\r\nCall back Friday <b>please</b>  \n",
      actor: actorOf(member),
    });
    const body = "Called at 10.\nCall back Friday <b>please</b>";
    assert.deepEqual(await notes(id), [{ id: noteId, authorId: member.id, body }]);
    const events = await noteEvents(team.id);
    assert.deepEqual(events, [
      { action: "lead.note_added", actorUserId: member.id, targetId: id, details: { note_id: noteId, length: body.length } },
    ]);
    assert.ok(!JSON.stringify(events).includes("Friday"), "the audit event never holds the text");
  });

  test("a blank, too long or non-text note is refused and nothing is written", async () => {
    const { team, member } = await makeTeam();
    const id = await lead(team.id);
    const add = (body: unknown) => addLeadNote({ teamId: team.id, leadId: id, body, actor: actorOf(member) });
    for (const body of ["", "   \n\t \r\n", 42, null, { text: "hi" }]) {
      assert.deepEqual(await add(body), { ok: false, error: "Write a note." }, JSON.stringify(body));
    }
    const long = await add("x".repeat(MAX_NOTE_LENGTH + 1));
    assert.equal(long.ok, false);
    assert.match(!long.ok ? long.error : "", /at most 10,000 characters/);
    assert.ok((await add("x".repeat(MAX_NOTE_LENGTH))).ok, "exactly the limit is accepted");
    assert.equal((await notes(id)).length, 1);
    assert.equal((await noteEvents(team.id)).length, 1);
  });

  test("a lead of another team, or a caller outside the team, is refused (a forged call), and nothing is written", async () => {
    const mine = await makeTeam();
    const theirs = await makeTeam();
    const foreign = await lead(theirs.team.id);
    assert.deepEqual(await addLeadNote({ teamId: mine.team.id, leadId: foreign, body: "Hello", actor: actorOf(mine.member) }), {
      ok: false,
      error: "This lead was not found in this team (it may have been deleted).",
    });
    assert.deepEqual(await addLeadNote({ teamId: theirs.team.id, leadId: foreign, body: "Hello", actor: actorOf(mine.member) }), {
      ok: false,
      error: "You are not a member of this team.",
    });
    // Another team's note, named with this team's lead or with its own lead, is not found.
    const theirNote = await added({ teamId: theirs.team.id, leadId: foreign, body: "Theirs", actor: actorOf(theirs.member) });
    const own = await lead(mine.team.id);
    for (const leadId of [own, foreign]) {
      const refused = { ok: false, error: "This note was not found (it may have been deleted meanwhile)." };
      assert.deepEqual(
        await editLeadNote({ teamId: mine.team.id, leadId, noteId: theirNote, body: "x", actor: actorOf(mine.owner) }),
        refused,
      );
      assert.deepEqual(await deleteLeadNote({ teamId: mine.team.id, leadId, noteId: theirNote, actor: actorOf(mine.owner) }), refused);
    }
    assert.deepEqual(await notes(foreign), [{ id: theirNote, authorId: theirs.member.id, body: "Theirs" }]);
    assert.equal((await noteEvents(mine.team.id)).length, 0);
  });
});

describe("editing and deleting notes", () => {
  test("the author edits their note; another member, an admin or an owner may not", async () => {
    const { team, member, other, admin, owner } = await makeTeam();
    const id = await lead(team.id);
    const noteId = await added({ teamId: team.id, leadId: id, body: "First", actor: actorOf(member) });
    for (const who of [other, admin, owner]) {
      assert.deepEqual(await editLeadNote({ teamId: team.id, leadId: id, noteId, body: "Changed", actor: actorOf(who) }), {
        ok: false,
        error: "Only a note's author edits it.",
      });
    }
    assert.deepEqual(await editLeadNote({ teamId: team.id, leadId: id, noteId, body: "Second\nline", actor: actorOf(member) }), {
      ok: true,
      noteId,
    });
    const [stored] = await db().leadNote.findMany({ where: { id: noteId } });
    assert.equal(stored?.body, "Second\nline");
    assert.ok(stored?.updatedAt instanceof Date, "an edited note has its time of edit");
    assert.deepEqual(
      (await noteEvents(team.id)).map((event) => [event.action, event.actorUserId, event.details]),
      [
        ["lead.note_added", member.id, { note_id: noteId, length: 5 }],
        ["lead.note_edited", member.id, { note_id: noteId, length: 11 }],
      ],
    );
    const blank = await editLeadNote({ teamId: team.id, leadId: id, noteId, body: " ", actor: actorOf(member) });
    assert.deepEqual(blank, { ok: false, error: "Write a note." });
  });

  test("the author deletes their note; another member may not; owners and admins remove anyone's", async () => {
    const { team, member, other, admin, owner } = await makeTeam();
    const id = await lead(team.id);
    const [a, b, c] = [
      await added({ teamId: team.id, leadId: id, body: "Mine", actor: actorOf(member) }),
      await added({ teamId: team.id, leadId: id, body: "For the admin", actor: actorOf(member) }),
      await added({ teamId: team.id, leadId: id, body: "For the owner", actor: actorOf(other) }),
    ];
    assert.deepEqual(await deleteLeadNote({ teamId: team.id, leadId: id, noteId: a, actor: actorOf(other) }), {
      ok: false,
      error: "Only a note's author, an owner or an admin deletes it.",
    });
    assert.deepEqual(await deleteLeadNote({ teamId: team.id, leadId: id, noteId: a, actor: actorOf(member) }), { ok: true, noteId: a });
    assert.deepEqual(await deleteLeadNote({ teamId: team.id, leadId: id, noteId: b, actor: actorOf(admin) }), { ok: true, noteId: b });
    assert.deepEqual(await deleteLeadNote({ teamId: team.id, leadId: id, noteId: c, actor: actorOf(owner) }), { ok: true, noteId: c });
    assert.deepEqual(await notes(id), []);
    const deleted = (await noteEvents(team.id)).filter((event) => event.action === "lead.note_deleted");
    assert.deepEqual(
      deleted.map((event) => [event.actorUserId, event.targetId, event.details]),
      [
        [member.id, id, { note_id: a, length: 4, by_author: true }],
        [admin.id, id, { note_id: b, length: 13, by_author: false }],
        [owner.id, id, { note_id: c, length: 13, by_author: false }],
      ],
    );
    // Gone: a second deletion finds nothing and records nothing.
    assert.equal((await deleteLeadNote({ teamId: team.id, leadId: id, noteId: a, actor: actorOf(member) })).ok, false);
    assert.equal((await noteEvents(team.id)).filter((event) => event.action === "lead.note_deleted").length, 3);
  });
});

describe("notes go with their lead", () => {
  test("a merge moves the merged leads' notes to the kept lead", async () => {
    const { team, member, admin } = await makeTeam();
    const [kept, merged] = [await lead(team.id), await lead(team.id)];
    const onKept = await added({ teamId: team.id, leadId: kept, body: "On the kept lead", actor: actorOf(member) });
    const onMerged = await added({ teamId: team.id, leadId: merged, body: "On the merged lead", actor: actorOf(member) });
    assert.deepEqual(await mergeLeads({ teamId: team.id, survivorId: kept, mergedIds: [merged], choices: {}, actor: actorOf(admin) }), {
      ok: true,
    });
    assert.deepEqual((await notes(kept)).map((note) => note.id).sort(), [onKept, onMerged].sort());
    // Its author still edits it on the kept lead.
    assert.equal((await editLeadNote({ teamId: team.id, leadId: kept, noteId: onMerged, body: "Moved", actor: actorOf(member) })).ok, true);
  });

  test("deleting a lead deletes its notes; a deleted author's notes stay, without an author", async () => {
    const { team, member, owner } = await makeTeam();
    const [gone, kept] = [await lead(team.id), await lead(team.id)];
    await added({ teamId: team.id, leadId: gone, body: "Goes with the lead", actor: actorOf(member) });
    const stays = await added({ teamId: team.id, leadId: kept, body: "Stays", actor: actorOf(member) });
    assert.equal(await deleteLeadsById({ teamId: team.id, ids: [gone], actor: actorOf(owner) }), 1);
    assert.equal(await db().leadNote.count({ where: { leadId: gone } }), 0);
    await db().user.delete({ where: { id: member.id } });
    assert.deepEqual(await notes(kept), [{ id: stays, authorId: null, body: "Stays" }]);
    // Nobody is its author now: an owner or admin may still remove it.
    assert.equal((await editLeadNote({ teamId: team.id, leadId: kept, noteId: stays, body: "x", actor: actorOf(owner) })).ok, false);
    assert.equal((await deleteLeadNote({ teamId: team.id, leadId: kept, noteId: stays, actor: actorOf(owner) })).ok, true);
  });
});
