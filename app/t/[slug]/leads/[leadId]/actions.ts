"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { MANAGERS, withTeamRole, type ActionResult } from "@/lib/auth/require-team-role";
import { recordLeadConsent, withdrawLeadConsent } from "@/lib/consent/consent-changes";
import { parseRecordedConsent } from "@/lib/consent/consent-settings";
import { resendConfirmation } from "@/lib/consent/double-opt-in";
import { now } from "@/lib/time/clock";
import { addLeadNote, deleteLeadNote, editLeadNote } from "@/lib/leads/lead-notes";
import { assignLeads, setLeadStatus } from "@/lib/leads/lead-ownership";
import { isLeadStatus } from "@/lib/leads/lead-status";
import { reportLeadAsSpam } from "@/lib/spam/report-spam";
import { ROLES } from "@/lib/teams/team-store";

// A lead's status and owner from its page (docs/routing.md), and its notes (docs/leads.md
// "Timeline and notes"). Every member of the team may call these; who may change what (a
// member takes only an unassigned lead for themself, edits and deletes only their own notes)
// is decided by the use cases in lib/leads/lead-ownership.ts and lib/leads/lead-notes.ts,
// whose refusals are returned as they are. "Spam" (owners and admins, as deleting a lead)
// moves the lead to the quarantine (lib/spam/report-spam.ts).

const leadIdSchema = z.string().regex(/^CRM-LEAD-\d{5,15}$/);
const userIdSchema = z.string().min(1).max(100);
const noteIdSchema = z.string().min(1).max(100);

const leadPath = (slug: string, leadId: string) => `/t/${slug}/leads/${leadId}`;

export async function setLeadStatusAction(slug: string, leadId: string, status: string): Promise<ActionResult> {
  return withTeamRole(slug, ROLES, async ({ team, actor }) => {
    const id = leadIdSchema.safeParse(leadId);
    if (!id.success) return { ok: false, error: "Reload the page and try again." };
    if (!isLeadStatus(status)) return { ok: false, error: "Choose a status." };
    const result = await setLeadStatus({ teamId: team.id, leadIds: [id.data], status, actor });
    if (!result.ok) return result;
    revalidatePath(leadPath(team.slug, id.data));
    return { ok: true };
  });
}

/** `ownerId`: a member's user id, or "" for no one (unassigned). */
export async function assignLeadAction(slug: string, leadId: string, ownerId: string): Promise<ActionResult> {
  return withTeamRole(slug, ROLES, async ({ team, actor }) => {
    const id = leadIdSchema.safeParse(leadId);
    const owner = ownerId === "" ? null : userIdSchema.safeParse(ownerId);
    if (!id.success || (owner !== null && !owner.success)) return { ok: false, error: "Reload the page and choose again." };
    const result = await assignLeads({ teamId: team.id, leadIds: [id.data], ownerId: owner?.data ?? null, actor });
    if (!result.ok) return result;
    revalidatePath(leadPath(team.slug, id.data));
    return { ok: true };
  });
}

/** The signed-in member takes the lead for themself. */
export async function takeLeadAction(slug: string, leadId: string): Promise<ActionResult> {
  return withTeamRole(slug, ROLES, async ({ team, user, actor }) => {
    const id = leadIdSchema.safeParse(leadId);
    if (!id.success) return { ok: false, error: "Reload the page and try again." };
    const result = await assignLeads({ teamId: team.id, leadIds: [id.data], ownerId: user.id, actor });
    if (!result.ok) return result;
    revalidatePath(leadPath(team.slug, id.data));
    return { ok: true };
  });
}

/** A member writes a note on the lead (its text is checked by the use case). */
export async function addLeadNoteAction(slug: string, leadId: string, body: string): Promise<ActionResult> {
  return withTeamRole(slug, ROLES, async ({ team, actor }) => {
    const id = leadIdSchema.safeParse(leadId);
    if (!id.success) return { ok: false, error: "Reload the page and try again." };
    const result = await addLeadNote({ teamId: team.id, leadId: id.data, body, actor });
    if (!result.ok) return result;
    revalidatePath(leadPath(team.slug, id.data));
    return { ok: true };
  });
}

/** The author edits their note. */
export async function editLeadNoteAction(slug: string, leadId: string, noteId: string, body: string): Promise<ActionResult> {
  return withTeamRole(slug, ROLES, async ({ team, actor }) => {
    const id = leadIdSchema.safeParse(leadId);
    const note = noteIdSchema.safeParse(noteId);
    if (!id.success || !note.success) return { ok: false, error: "Reload the page and try again." };
    const result = await editLeadNote({ teamId: team.id, leadId: id.data, noteId: note.data, body, actor });
    if (!result.ok) return result;
    revalidatePath(leadPath(team.slug, id.data));
    return { ok: true };
  });
}

/** The author deletes their note; owners and admins remove anyone's. */
export async function deleteLeadNoteAction(slug: string, leadId: string, noteId: string): Promise<ActionResult> {
  return withTeamRole(slug, ROLES, async ({ team, actor }) => {
    const id = leadIdSchema.safeParse(leadId);
    const note = noteIdSchema.safeParse(noteId);
    if (!id.success || !note.success) return { ok: false, error: "Reload the page and try again." };
    const result = await deleteLeadNote({ teamId: team.id, leadId: id.data, noteId: note.data, actor });
    if (!result.ok) return result;
    revalidatePath(leadPath(team.slug, id.data));
    return { ok: true };
  });
}

/** Owners and admins move the lead to Leads → Spam; `block`: its sender's address goes on the team's block list too. */
export async function reportLeadAsSpamAction(slug: string, leadId: string, block: boolean): Promise<ActionResult<{ blocked: boolean }>> {
  return withTeamRole<{ blocked: boolean }>(slug, MANAGERS, async ({ team, actor }) => {
    const id = leadIdSchema.safeParse(leadId);
    if (!id.success || typeof block !== "boolean") return { ok: false, error: "Reload the page and try again." };
    const reported = await reportLeadAsSpam({ teamId: team.id, leadId: id.data, block, actor });
    revalidatePath(`/t/${team.slug}/leads`);
    return reported;
  });
}

/** Consent given another way (phone, paper), recorded by any member with a note of how (docs/consent.md). */
export async function recordConsentAction(slug: string, leadId: string, form: FormData): Promise<ActionResult> {
  return withTeamRole(slug, ROLES, async ({ team, actor }) => {
    const id = leadIdSchema.safeParse(leadId);
    if (!id.success) return { ok: false, error: "Reload the page and try again." };
    const parsed = parseRecordedConsent(form, now());
    if ("problem" in parsed) return { ok: false, error: parsed.problem };
    const recorded = await recordLeadConsent({ teamId: team.id, leadId: id.data, consent: parsed.consent, actor });
    if (!recorded) return { ok: false, error: "That lead does not exist (it may have been deleted)." };
    revalidatePath(leadPath(team.slug, id.data));
    return { ok: true };
  });
}

/** "Resend confirmation" (owners and admins): the double opt-in email again, at most one a day per person. */
export async function resendConfirmationAction(slug: string, leadId: string): Promise<ActionResult> {
  return withTeamRole(slug, MANAGERS, async ({ team, actor }) => {
    const id = leadIdSchema.safeParse(leadId);
    if (!id.success) return { ok: false, error: "Reload the page and try again." };
    const sent = await resendConfirmation({ teamId: team.id, leadId: id.data, actor, at: now() });
    if (!sent) return { ok: false, error: "That lead does not exist (it may have been deleted)." };
    revalidatePath(leadPath(team.slug, id.data));
    switch (sent.result) {
      case "queued":
        return { ok: true };
      case "limited":
        return {
          ok: false,
          error: `A confirmation email was sent less than 24 hours ago. You can resend it after ${sent.nextAt.toUTCString()}.`,
        };
      case "confirmed_before":
        return { ok: false, error: "This person already confirmed: no new email is sent." };
      case "no_email":
        return { ok: false, error: "This lead has no email address." };
      case "not_pending":
        return { ok: false, error: "This lead's consent is not waiting for confirmation." };
      case "suppressed":
        return {
          ok: false,
          error: "This person withdrew their consent before (the address is on the suppression list): no email is sent.",
        };
    }
  });
}

/** "Withdraw consent" (any member, as "Record consent"): the person withdrew, with an optional note of how (docs/consent.md). */
export async function withdrawConsentAction(slug: string, leadId: string, form: FormData): Promise<ActionResult> {
  return withTeamRole(slug, ROLES, async ({ team, actor }) => {
    const id = leadIdSchema.safeParse(leadId);
    if (!id.success) return { ok: false, error: "Reload the page and try again." };
    const note = String(form.get("note") ?? "").trim();
    if (note.length > 2_000) return { ok: false, error: "Keep the note under 2,000 characters." };
    const withdrawn = await withdrawLeadConsent({ teamId: team.id, leadId: id.data, note: note || null, actor });
    if (!withdrawn) return { ok: false, error: "That lead does not exist (it may have been deleted)." };
    revalidatePath(leadPath(team.slug, id.data));
    return withdrawn.result === "withdrawn" ? { ok: true } : { ok: false, error: "This lead's consent is withdrawn already." };
  });
}
