"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import type { ActionResult } from "@/lib/auth/require-team-role";
import { currentUser } from "@/lib/auth/session";
import { FOREIGN_REQUEST_MESSAGE, originProblem } from "@/lib/http/same-origin";
import { backOnInstant, workingHoursSchema, type WorkingHours } from "@/lib/routing/availability";
import { setAvailability } from "@/lib/users/availability-store";

const SESSION_ENDED = "Your session has ended; sign in again.";

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
};

/**
 * The signed-in user's availability for new leads (Your account): away with an optional
 * return date, and working hours or none. Every team of theirs routes by it from the next lead.
 */
export async function saveAvailabilityAction(form: FormData): Promise<ActionResult> {
  if (originProblem(await headers())) return { ok: false, error: FOREIGN_REQUEST_MESSAGE };
  const user = await currentUser();
  if (!user) return { ok: false, error: SESSION_ENDED };

  let workingHours: WorkingHours | null = null;
  if (form.get("hoursOn") === "on") {
    const end = text(form, "end");
    const parsed = workingHoursSchema.safeParse({
      timeZone: text(form, "timeZone"),
      days: form.getAll("days").map(Number),
      start: text(form, "start"),
      // A time input cannot say 24:00: midnight as the end is the end of the day.
      end: end === "00:00" ? "24:00" : end,
    });
    if (!parsed.success) return { ok: false, error: parsed.error.issues[0]!.message };
    workingHours = parsed.data;
  }

  const away = form.get("away") === "on";
  const backOn = away ? text(form, "backOn") : "";
  const awayUntil = backOn ? backOnInstant(backOn, workingHours) : null;
  if (backOn && !awayUntil) return { ok: false, error: "Enter the return date as a date, or leave it empty." };

  if (!(await setAvailability(user.id, { away, awayUntil, workingHours }))) return { ok: false, error: SESSION_ENDED };
  revalidatePath("/account");
  return { ok: true };
}
