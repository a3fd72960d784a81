import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AvailabilityForm } from "@/components/account/availability-form";
import { ChatIdsForm } from "@/components/account/chat-ids-form";
import { ChangePasswordForm } from "@/components/account/change-password-form";
import { AppHeader } from "@/components/layout/app-header";
import { cardClass } from "@/components/ui/styles";
import { currentUser } from "@/lib/auth/session";
import { backOnDate, isAway, isOnDuty, type Availability } from "@/lib/routing/availability";
import { listTeamsForUser } from "@/lib/teams/team-store";
import { now } from "@/lib/time/clock";
import { readAvailability } from "@/lib/users/availability-store";
import { readChatIds } from "@/lib/users/chat-ids-store";
import { saveAvailabilityAction } from "./availability-actions";
import { saveChatIdsAction } from "./chat-ids-actions";

export const metadata: Metadata = { title: "Your account · Lead Intake" };

const longDate = new Intl.DateTimeFormat("en-GB", { dateStyle: "full", timeZone: "UTC" });

/** Where the user stands right now, in words. */
function currentStanding(availability: Availability, backOn: string | null, at: Date): string {
  if (isAway(availability, at)) {
    return backOn
      ? `Right now you are away: rules give you no new leads until ${longDate.format(new Date(`${backOn}T00:00:00Z`))}.`
      : "Right now you are away: rules give you no new leads until you turn Away off.";
  }
  if (!isOnDuty(availability, at)) return "Right now you are outside your working hours: rules give you new leads from your next shift.";
  return "Right now rules can give you new leads.";
}

export default async function AccountPage() {
  const user = await currentUser();
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent("/account")}`);
  const [teams, availability, chatIds] = await Promise.all([listTeamsForUser(user.id), readAvailability(user.id), readChatIds(user.id)]);
  const backOn = backOnDate(availability);
  const stored = availability.workingHours?.timeZone;
  const timeZones = ["UTC", ...Intl.supportedValuesOf("timeZone").filter((name) => name !== "UTC")];
  if (stored && !timeZones.includes(stored)) timeZones.push(stored);
  return (
    <div className="min-h-screen">
      {/* The team the home page opens (the first by name), so the header is the one of every page. */}
      <AppHeader user={user} team={teams[0]} teams={teams} />
      <main id="main" tabIndex={-1} className="mx-auto max-w-7xl px-4 py-8 outline-none sm:px-6 lg:px-8">
        <div className="mb-8">
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Your account</h1>
          <p className="mt-1 text-sm [overflow-wrap:anywhere] text-slate-600">Signed in as {user.email}.</p>
        </div>
        <section aria-labelledby="availability-title" className={`${cardClass} max-w-2xl p-6`}>
          <h2 id="availability-title" className="text-lg font-semibold text-slate-900">
            Availability for new leads
          </h2>
          <p className="mt-1 text-sm text-slate-600">Assignment rules skip you while you are away or outside your working hours.</p>
          <p className="mt-3 mb-6 rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700">
            {currentStanding(availability, backOn, now())}
          </p>
          <AvailabilityForm
            save={saveAvailabilityAction}
            away={availability.away}
            backOn={backOn}
            workingHours={availability.workingHours}
            timeZones={timeZones}
          />
        </section>
        <section aria-labelledby="chat-ids-title" className={`${cardClass} mt-8 max-w-2xl p-6`}>
          <h2 id="chat-ids-title" className="text-lg font-semibold text-slate-900">
            Chat mentions
          </h2>
          <p className="mt-1 mb-6 text-sm text-slate-600">
            When a lead is assigned to you and your team posts assignments to Slack or Discord, the message mentions you by these IDs.
          </p>
          <ChatIdsForm save={saveChatIdsAction} slackUserId={chatIds.slackUserId} discordUserId={chatIds.discordUserId} />
        </section>
        <section aria-labelledby="password-title" className={`${cardClass} mt-8 max-w-2xl p-6`}>
          <h2 id="password-title" className="text-lg font-semibold text-slate-900">
            Change password
          </h2>
          <p className="mt-1 mb-6 text-sm text-slate-600">Changing the password signs you out everywhere else.</p>
          <div className="max-w-sm">
            <ChangePasswordForm />
          </div>
        </section>
      </main>
    </div>
  );
}
