"use client";

import { useState, useSyncExternalStore } from "react";
import type { ActionResult } from "@/lib/auth/require-team-role";
import type { WorkingHours } from "@/lib/routing/availability";
import { Field } from "@/components/ui/field";
import { ActionOutcome } from "@/components/ui/form-error";
import { inputClass, labelClass } from "@/components/ui/styles";
import { SubmitButton } from "@/components/ui/submit-button";
import { useFormAction } from "@/components/ui/use-form-action";

const DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const NEW_HOURS: WorkingHours = { timeZone: "UTC", days: [1, 2, 3, 4, 5], start: "09:00", end: "17:00" };

const checkboxClass = "h-4 w-4 rounded border-slate-300";
const subscribe = () => () => {};

/**
 * The signed-in user's availability for new leads: away (with an optional return date) and
 * working hours (days, from, to, time zone), saved together. A new set of hours starts in the
 * time zone the browser reports, when the list has it, else UTC.
 */
export function AvailabilityForm(props: {
  save: (form: FormData) => Promise<ActionResult>;
  away: boolean;
  backOn: string | null;
  workingHours: WorkingHours | null;
  timeZones: readonly string[];
}) {
  const [away, setAway] = useState(props.away);
  const [hoursOn, setHoursOn] = useState(props.workingHours !== null);
  const [chosenZone, setChosenZone] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  // Read after hydration only: the server cannot know the browser's zone.
  const browserZone = useSyncExternalStore(
    subscribe,
    () => Intl.DateTimeFormat().resolvedOptions().timeZone,
    () => null,
  );
  const zone =
    chosenZone ?? props.workingHours?.timeZone ?? (browserZone && props.timeZones.includes(browserZone) ? browserZone : NEW_HOURS.timeZone);
  const hours = props.workingHours ?? NEW_HOURS;

  const { pending, error, onSubmit } = useFormAction(props.save, {
    unreachable: "The server could not be reached; your availability was not saved. Try again.",
    onDone: () => setSaved("Availability saved."),
  });

  return (
    <form
      onSubmit={(event) => {
        setSaved(null);
        onSubmit(event);
      }}
      className="max-w-2xl space-y-6"
    >
      <fieldset className="space-y-3">
        <legend className="text-sm font-semibold text-slate-900">Away</legend>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input type="checkbox" name="away" checked={away} onChange={(event) => setAway(event.target.checked)} className={checkboxClass} />
          I am away: give me no new leads
        </label>
        <Field id="back-on" label="Back on" optional>
          <input
            id="back-on"
            name="backOn"
            type="date"
            defaultValue={props.backOn ?? ""}
            disabled={!away}
            aria-describedby="back-on-help"
            className={`${inputClass} mt-1.5 max-w-48`}
          />
          <p id="back-on-help" className="mt-1.5 text-xs text-slate-500">
            You get leads again from the start of that day ({hoursOn ? zone : "UTC"}). Empty: until you turn Away off.
          </p>
        </Field>
      </fieldset>

      <fieldset className="space-y-4">
        <legend className="text-sm font-semibold text-slate-900">Working hours</legend>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            name="hoursOn"
            checked={hoursOn}
            onChange={(event) => setHoursOn(event.target.checked)}
            aria-describedby="hours-on-help"
            className={checkboxClass}
          />
          Give me new leads only during my working hours
        </label>
        <p id="hours-on-help" className="text-xs text-slate-500">
          Off: you get new leads at any time you are not away.
        </p>
        <fieldset disabled={!hoursOn}>
          <legend className={labelClass}>Days</legend>
          <div className="mt-1.5 flex flex-wrap gap-x-4 gap-y-2">
            {DAYS.map((day, index) => (
              <label key={day} className="flex items-center gap-2 text-sm text-slate-700">
                <input
                  type="checkbox"
                  name="days"
                  value={index + 1}
                  defaultChecked={hours.days.includes(index + 1)}
                  className={checkboxClass}
                />
                {day}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="hours-start" label="From">
            <input
              id="hours-start"
              name="start"
              type="time"
              required
              defaultValue={hours.start}
              disabled={!hoursOn}
              className={`${inputClass} mt-1.5`}
            />
          </Field>
          <Field id="hours-end" label="To">
            <input
              id="hours-end"
              name="end"
              type="time"
              required
              defaultValue={hours.end === "24:00" ? "00:00" : hours.end}
              disabled={!hoursOn}
              aria-describedby="hours-end-help"
              className={`${inputClass} mt-1.5`}
            />
            <p id="hours-end-help" className="mt-1.5 text-xs text-slate-500">
              Earlier than From: the shift ends the next morning. 00:00: at midnight.
            </p>
          </Field>
        </div>
        <Field id="time-zone" label="Time zone">
          <select
            id="time-zone"
            name="timeZone"
            value={zone}
            onChange={(event) => setChosenZone(event.target.value)}
            disabled={!hoursOn}
            className={`${inputClass} mt-1.5 sm:max-w-sm`}
          >
            {props.timeZones.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </Field>
      </fieldset>

      <ActionOutcome error={error} status={saved} />
      <SubmitButton pending={pending} label="Save availability" pendingLabel="Saving…" />
    </form>
  );
}
