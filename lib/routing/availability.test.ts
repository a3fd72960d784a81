import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import {
  backOnDate,
  backOnInstant,
  isAway,
  isOnDuty,
  localDate,
  parseWorkingHours,
  startOfLocalDay,
  workingHoursSchema,
  type Availability,
  type WorkingHours,
} from "./availability";

// Who an assignment rule may pick (lib/routing/availability.ts): away members and members outside
// their working hours are skipped. Instants are fixed (the test clock), read on each member's clock.

const hours = (timeZone: string, start: string, end: string, days = [1, 2, 3, 4, 5, 6, 7]): WorkingHours => ({
  timeZone,
  days,
  start,
  end,
});
const member = (workingHours: WorkingHours | null, away = false, awayUntil: Date | null = null) => ({ away, awayUntil, workingHours });
const at = (iso: string) => new Date(iso);

/** Asserts the member is on duty at each instant of `on` and off duty at each of `off` (ISO, on the member's UTC offset). */
function expectDuty(availability: Availability, { on = [], off = [] }: { on?: string[]; off?: string[] }): void {
  for (const instant of on) assert.equal(isOnDuty(availability, at(instant)), true, `on duty at ${instant}`);
  for (const instant of off) assert.equal(isOnDuty(availability, at(instant)), false, `off duty at ${instant}`);
}

describe("working hours", () => {
  test("the same instant is a different time on each member's clock", () => {
    // Monday 2026-06-15: Los Angeles is UTC−7 (PDT), Kolkata UTC+5:30, Berlin UTC+2 (CEST).
    const members = ["America/Los_Angeles", "Asia/Kolkata", "Europe/Berlin"].map((zone) =>
      member(hours(zone, "09:00", "17:00", [1, 2, 3, 4, 5])),
    );
    const cases: [string, boolean[]][] = [
      ["2026-06-15T03:30:00Z", [false, true, false]], // LA Sunday 20:30, Kolkata 09:00, Berlin 05:30
      ["2026-06-15T07:00:00Z", [false, true, true]], // LA 00:00, Kolkata 12:30, Berlin 09:00
      ["2026-06-15T11:30:00Z", [false, false, true]], // Kolkata 17:00
      ["2026-06-15T15:00:00Z", [false, false, false]], // LA 08:00, Berlin 17:00
      ["2026-06-15T16:00:00Z", [true, false, false]], // LA 09:00
      ["2026-06-16T00:00:00Z", [false, false, false]], // LA 17:00
    ];
    for (const [instant, expected] of cases) {
      const onDuty = members.map((a) => isOnDuty(a, at(instant)));
      assert.deepEqual(onDuty, expected, instant);
    }
  });

  test("Fri 22:00–06:00 covers Friday 22:00 to Saturday 06:00, not Thursday's night or Saturday's", () => {
    expectDuty(member(hours("Asia/Tokyo", "22:00", "06:00", [5])), {
      on: ["2026-06-19T22:00+09:00", "2026-06-20T05:59+09:00"],
      off: ["2026-06-19T21:59+09:00", "2026-06-20T06:00+09:00", "2026-06-19T00:00+09:00", "2026-06-20T22:30+09:00"],
    });
  });

  test("Sunday's night shift runs into Monday; Monday's starts on Monday evening", () => {
    expectDuty(member(hours("UTC", "22:00", "06:00", [7])), {
      on: ["2026-06-21T22:00Z", "2026-06-22T03:00Z"],
      off: ["2026-06-22T06:00Z", "2026-06-22T23:00Z", "2026-06-20T23:00Z"],
    });
    expectDuty(member(hours("UTC", "22:00", "06:00", [1])), {
      on: ["2026-06-22T23:00Z", "2026-06-23T01:00Z"],
      off: ["2026-06-22T03:00Z", "2026-06-23T06:00Z"],
    });
  });

  test('"24:00" ends the shift at midnight; 00:00–24:00 is the whole day', () => {
    expectDuty(member(hours("Europe/Berlin", "18:00", "24:00", [3])), {
      on: ["2026-06-17T18:00+02:00", "2026-06-17T23:59:59+02:00"],
      off: ["2026-06-17T17:59+02:00", "2026-06-18T00:00+02:00"],
    });
    expectDuty(member(hours("Europe/Berlin", "00:00", "24:00", [3])), {
      on: ["2026-06-17T00:00+02:00", "2026-06-17T23:59:59+02:00"],
      off: ["2026-06-16T23:59:59+02:00", "2026-06-18T00:00+02:00"],
    });
  });
});

describe("clock changes", () => {
  test("09:00–17:00 holds on both sides of Berlin's and New York's changes", () => {
    // Each zone's days before, of and after its changes of 2026, each with its UTC offset that day.
    const days: [string, string[]][] = [
      ["Europe/Berlin", ["03-28+01:00", "03-29+02:00", "03-30+02:00", "10-24+02:00", "10-25+01:00", "10-26+01:00"]],
      ["America/New_York", ["03-07-05:00", "03-08-04:00", "03-09-04:00", "10-31-04:00", "11-01-05:00", "11-02-05:00"]],
    ];
    for (const [zone, dates] of days) {
      for (const [date, offset] of dates.map((day) => [`2026-${day.slice(0, 5)}`, day.slice(5)])) {
        expectDuty(member(hours(zone, "09:00", "17:00")), {
          on: [`${date}T09:00${offset}`, `${date}T16:59${offset}`],
          off: [`${date}T08:59${offset}`, `${date}T17:00${offset}`],
        });
      }
    }
  });

  test("a night shift across the change ends at 06:00 on the new clock", () => {
    expectDuty(member(hours("Europe/Berlin", "22:00", "06:00", [6])), {
      on: ["2026-03-28T22:00+01:00", "2026-03-29T05:59+02:00"],
      off: ["2026-03-29T06:00+02:00"],
    });
    expectDuty(member(hours("America/New_York", "22:00", "06:00", [6])), {
      // 01:30 comes twice on 2026-11-01: in EDT, then in EST.
      on: ["2026-10-31T22:00-04:00", "2026-11-01T01:30-04:00", "2026-11-01T01:30-05:00", "2026-11-01T05:59-05:00"],
      off: ["2026-11-01T06:00-05:00"],
    });
  });

  test("a change off the quarter hour is read exactly", () => {
    // Monrovia left UTC−0:44:30 at 1972-01-07 00:44:30 UTC: 23:59:59 became 00:44:30.
    expectDuty(member(hours("Africa/Monrovia", "00:40", "00:50")), {
      on: ["1972-01-07T00:44:40Z"],
      off: ["1972-01-07T00:30:00Z", "1972-01-07T00:44:29Z"],
    });
  });

  test("hours inside the skipped hour never come; inside the repeated hour they come twice", () => {
    const halfPastTwo = member(hours("Europe/Berlin", "02:00", "02:30"));
    const onDutyMinutes = (day: string) =>
      Array.from({ length: 24 * 60 }, (_, i) => new Date(at(`${day}T00:00:00Z`).getTime() + i * 60_000))
        .filter((instant) => isOnDuty(halfPastTwo, instant))
        .map((instant) => instant.toISOString().slice(11, 16));
    const halfHour = (from: number) => Array.from({ length: 30 }, (_, i) => `0${from}:${String(i).padStart(2, "0")}`);
    assert.deepEqual(onDutyMinutes("2026-03-28"), halfHour(1), "the day before: 02:00–02:30 CET is 01:00–01:30 UTC");
    assert.deepEqual(onDutyMinutes("2026-03-29"), [], "02:00–03:00 is skipped on 2026-03-29");
    assert.deepEqual(onDutyMinutes("2026-10-25"), [...halfHour(0), ...halfHour(1)], "02:00–03:00 comes twice on 2026-10-25");
  });

  test("the start of a day is its local midnight, whatever the offset that day", () => {
    const cases: [string, string, string][] = [
      ["2026-01-05", "UTC", "2026-01-05T00:00:00.000Z"],
      ["2026-03-29", "Europe/Berlin", "2026-03-28T23:00:00.000Z"],
      ["2026-03-30", "Europe/Berlin", "2026-03-29T22:00:00.000Z"],
      ["2026-11-01", "America/New_York", "2026-11-01T04:00:00.000Z"],
      ["2026-11-02", "America/New_York", "2026-11-02T05:00:00.000Z"],
      ["2026-06-15", "Asia/Kolkata", "2026-06-14T18:30:00.000Z"],
      // Havana moves its clocks at midnight: 2026-03-08 starts at 01:00 CDT; 2026-11-01 at its first 00:00.
      ["2026-03-08", "America/Havana", "2026-03-08T05:00:00.000Z"],
      ["2026-11-01", "America/Havana", "2026-11-01T04:00:00.000Z"],
      ["2026-06-15", "No/Such_Zone", "2026-06-15T00:00:00.000Z"],
    ];
    for (const [date, zone, expected] of cases) {
      assert.equal(startOfLocalDay(date, zone)?.toISOString(), expected, `${date} ${zone}`);
      assert.equal(localDate(new Date(expected), zone), date, `back to ${date} in ${zone}`);
    }
    for (const notADate of ["2026-02-30", "2026-13-01", "26-01-01", "0999-12-31", "2026-1-5", ""]) {
      assert.equal(startOfLocalDay(notADate, "UTC"), null, notADate);
    }
  });
});

describe("away", () => {
  const until = at("2026-07-01T00:00:00Z");

  test("away until a return date: away before it, back at it; without one, away until turned off", () => {
    const returning = member(null, true, until);
    assert.equal(isAway(returning, new Date(until.getTime() - 1)), true);
    assert.equal(isOnDuty(returning, new Date(until.getTime() - 1)), false);
    assert.equal(isAway(returning, until), false);
    assert.equal(isOnDuty(returning, until), true);
    assert.equal(isAway(member(null, true), at("2099-01-01T00:00:00Z")), true);
    assert.equal(isAway(member(null, false, until), at("2026-06-01T00:00:00Z")), false, "a return date alone is not away");
    // Back from away, still off duty outside the working hours.
    const back = member(hours("UTC", "09:00", "17:00"), true, until);
    assert.equal(isOnDuty(back, at("2026-07-01T08:00:00Z")), false);
    assert.equal(isOnDuty(back, at("2026-07-01T09:00:00Z")), true);
    assert.equal(isOnDuty(back, at("2026-06-30T09:00:00Z")), false, "away");
  });

  test("a return date is read on the member's working-hours clock, or in UTC without working hours", () => {
    const kolkata = hours("Asia/Kolkata", "09:00", "17:00");
    assert.equal(backOnInstant("2026-07-01", kolkata)?.toISOString(), "2026-06-30T18:30:00.000Z");
    assert.equal(backOnInstant("2026-07-01", null)?.toISOString(), "2026-07-01T00:00:00.000Z");
    assert.equal(backOnInstant("July 1st", null), null);
    const back = (workingHours: WorkingHours | null) => member(workingHours, true, backOnInstant("2026-07-01", workingHours));
    assert.equal(backOnDate(back(kolkata)), "2026-07-01");
    assert.equal(backOnDate(member(kolkata, true)), null);
    assert.equal(isAway(back(kolkata), at("2026-06-30T18:29:59Z")), true, "23:59:59 in Kolkata");
    assert.equal(isAway(back(kolkata), at("2026-06-30T18:30:00Z")), false, "00:00 in Kolkata");
  });
});

test("the schema keeps valid hours (days in order, the zone's own spelling) and refuses the rest, each with its message", () => {
  const valid = { timeZone: "Europe/Berlin", days: [5, 1, 3], start: "09:00", end: "17:30" };
  assert.deepEqual(parseWorkingHours(valid), { ...valid, days: [1, 3, 5] });
  assert.deepEqual(parseWorkingHours({ ...valid, timeZone: "europe/berlin", end: "24:00" }), { ...valid, days: [1, 3, 5], end: "24:00" });
  assert.equal(parseWorkingHours({ ...valid, extra: 1 })?.timeZone, "Europe/Berlin", "unknown keys are dropped");
  const refusals: [string, Record<string, unknown>[]][] = [
    ["Choose a time zone from the list.", [{ timeZone: "Mars/Olympus_Mons" }, { timeZone: "+05:30" }, { timeZone: "" }, { timeZone: 3 }]],
    ["Choose at least one working day.", [{ days: [] }]],
    ["Choose the days you work, Monday to Sunday.", [{ days: [0] }, { days: [8] }, { days: [1, 1] }, { days: [1.5] }, { days: "1" }]],
    ["Enter the start time as HH:MM.", [{ start: "24:00" }, { start: "9:00" }, { start: "09:60" }]],
    ["Enter the end time as HH:MM.", [{ end: "24:01" }, { end: undefined }]],
    ["The end time must differ from the start time.", [{ end: "09:00" }]],
  ];
  for (const [message, change] of refusals.flatMap(([message, changes]) => changes.map((change) => [message, change] as const))) {
    const parsed = workingHoursSchema.safeParse({ ...valid, ...change });
    assert.equal(parsed.error?.issues[0]?.message, message, JSON.stringify(change));
    assert.equal(parseWorkingHours({ ...valid, ...change }), null);
  }
  for (const value of [null, undefined, "09:00-17:00", [], 42, { ...valid, timeZone: "Europe/Berlin\n" }]) {
    assert.equal(parseWorkingHours(value), null, JSON.stringify(value));
  }
});

describe("properties", () => {
  const zone = fc.constantFrom(...Intl.supportedValuesOf("timeZone"), "UTC");
  const instant = fc.date({ min: at("1971-01-01T00:00:00Z"), max: at("2100-12-31T23:59:59Z"), noInvalidDate: true });
  const time = fc
    .integer({ min: 0, max: 1439 })
    .map((m) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`);
  const WEEKDAY: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };
  const clockOf = (timeZone: string) =>
    new Intl.DateTimeFormat("en-US", { timeZone, weekday: "short", hour: "numeric", minute: "numeric", hourCycle: "h23" });

  test("a member on duty 00:00–24:00 every day is on duty exactly when not away", () => {
    const away = fc.record({ away: fc.boolean(), awayUntil: fc.option(instant, { nil: null }) });
    fc.assert(
      fc.property(zone, away, instant, (timeZone, a, now) => {
        const availability = { ...a, workingHours: hours(timeZone, "00:00", "24:00") };
        assert.equal(isOnDuty(availability, now), !isAway(availability, now));
      }),
      { numRuns: 2000 },
    );
  });

  test("of the shifts a→b and b→a on every day, exactly one is on at any instant", () => {
    fc.assert(
      fc.property(zone, time, time, instant, (timeZone, a, b, now) => {
        fc.pre(a !== b);
        const there = isOnDuty(member(hours(timeZone, a, b)), now);
        const back = isOnDuty(member(hours(timeZone, b, a)), now);
        assert.notEqual(there, back, `${timeZone} ${a}–${b} at ${now.toISOString()}`);
      }),
      { numRuns: 3000 },
    );
  });

  test("on duty agrees with the member's clock as Intl shows it, instant by instant", () => {
    const days = fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 });
    const end = fc.oneof(time, fc.constant("24:00"));
    // Instants near one another, as the intake asks them: the kept quarter of an hour is used.
    const instants = fc.tuple(instant, fc.array(fc.integer({ min: -3_600_000, max: 3_600_000 }), { minLength: 1, maxLength: 8 }));
    fc.assert(
      fc.property(zone, days, time, end, instants, (timeZone, d, start, finish, [base, steps]) => {
        fc.pre(start !== finish);
        const [from, to] = [start, finish].map((t) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3))) as [number, number];
        for (const step of steps) {
          const now = new Date(base.getTime() + step);
          const parts = Object.fromEntries(
            clockOf(timeZone)
              .formatToParts(now)
              .map((part) => [part.type, part.value]),
          );
          const today = WEEKDAY[parts.weekday!]!;
          const minute = (Number(parts.hour) % 24) * 60 + Number(parts.minute);
          const expected =
            from < to
              ? d.includes(today) && minute >= from && minute < to
              : (d.includes(today) && minute >= from) || (d.includes(today === 1 ? 7 : today - 1) && minute < to);
          assert.equal(isOnDuty(member(hours(timeZone, start, finish, d)), now), expected, `${timeZone} at ${now.toISOString()}`);
        }
      }),
      { numRuns: 1500 },
    );
  });

  test("parseWorkingHours never throws: any JSON is null or hours that parse to themselves", () => {
    const days = fc.uniqueArray(fc.integer({ min: 0, max: 8 }), { maxLength: 8 });
    const field = fc.oneof(fc.jsonValue(), zone, time, fc.constant("24:00"), days);
    const shaped = fc.record({ timeZone: field, days: fc.oneof(days, fc.jsonValue()), start: field, end: field }, { requiredKeys: [] });
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), shaped), (value) => {
        const parsed = parseWorkingHours(value);
        if (parsed !== null) assert.deepEqual(parseWorkingHours(parsed), parsed);
      }),
      { numRuns: 3000 },
    );
  });

  test("a day's start is on that day on the member's clock, and a second before it is not", () => {
    // From 2012: Samoa skipped 2011-12-30 (and Kiribati 1994-12-31), a day with no start at all.
    const date = fc.date({ min: at("2012-01-01T00:00:00Z"), max: at("2100-12-31T00:00:00Z"), noInvalidDate: true });
    fc.assert(
      fc.property(zone, date, (timeZone, day) => {
        const iso = day.toISOString().slice(0, 10);
        const start = startOfLocalDay(iso, timeZone)!;
        assert.equal(localDate(start, timeZone), iso, `${iso} in ${timeZone}`);
        assert.ok(localDate(new Date(start.getTime() - 1000), timeZone) < iso, `a second before ${iso} in ${timeZone}`);
      }),
      { numRuns: 3000 },
    );
  });
});
