import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { Availability } from "./availability";
import { pickTurn, planLead, routeLead, type Routing, type RoutingMember, type RoutingRule } from "./route-lead";
import { compileCondition, conditionHolds, type Condition, type RoutedLead } from "./rule-conditions";

// The rules of routing, without a database: conditions, first match, the fallbacks, who is
// skipped, and the round robin's turns. The intake's use of them is intake-assignment.test.ts'.

const NOW = new Date("2026-11-25T10:00:00Z"); // a Wednesday

const lead = (fields: Partial<RoutedLead> = {}): RoutedLead => ({
  sourceId: "src-web",
  formId: null,
  connectionId: null,
  apiKeyId: "key-1",
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  organization: "Analytical Engines",
  jobTitle: null,
  website: null,
  territory: null,
  industry: null,
  annualRevenue: null,
  noOfEmployees: null,
  utmSource: null,
  utmMedium: null,
  utmCampaign: null,
  utmTerm: null,
  utmContent: null,
  phoneCountryCode: null,
  mobileCountryCode: null,
  extraFields: {},
  ...fields,
});

const onDuty: Availability = { away: false, awayUntil: null, workingHours: null };
const member = (availability: Availability = onDuty): RoutingMember => ({
  ...availability,
  email: "m@example.com",
  name: null,
  notifyAssignments: true,
});

const rule = (id: string, conditions: Condition[], userIds: string[], extra: Partial<RoutingRule> = {}): RoutingRule => ({
  id,
  name: id,
  conditions: conditions.map(compileCondition),
  mode: userIds.length > 1 ? "round_robin" : "member",
  userIds,
  fallbackUserId: null,
  fallbackLater: false,
  ...extra,
});

const routing = (rules: RoutingRule[], members: Record<string, RoutingMember>, fallbackUserId: string | null = null): Routing => ({
  version: 1,
  rules,
  fallbackUserId,
  members: new Map(Object.entries(members)),
});

const holds = (condition: Condition, fields: Partial<RoutedLead>) => conditionHolds(compileCondition(condition), lead(fields));

describe("a rule's conditions", () => {
  it("compare text ignoring case, accents and surrounding spaces; equals is whole, contains is part", () => {
    assert.equal(holds({ field: "utm_source", op: "equals", values: [" Google "] }, { utmSource: "google" }), true);
    assert.equal(holds({ field: "utm_source", op: "equals", values: ["goo"] }, { utmSource: "google" }), false);
    assert.equal(holds({ field: "utm_source", op: "contains", values: ["OOG"] }, { utmSource: "google" }), true);
    assert.equal(holds({ field: "territory", op: "one_of", values: ["Köln", "Berlin"] }, { territory: "KOLN" }), true);
    assert.equal(holds({ field: "territory", op: "one_of", values: ["Köln", "Berlin"] }, { territory: "Hamburg" }), false);
    assert.equal(holds({ field: "email", op: "contains", values: ["@example.com"] }, {}), true);
  });

  it("never hold for a field the lead lacks", () => {
    for (const op of ["equals", "contains", "one_of"] as const) {
      assert.equal(holds({ field: "utm_campaign", op, values: ["x"] }, {}), false);
      assert.equal(holds({ field: "extra:plan", op, values: ["x"] }, {}), false);
    }
  });

  it("compare where the lead came from by id, exactly", () => {
    assert.equal(holds({ field: "source", op: "one_of", values: ["src-web", "src-ads"] }, {}), true);
    assert.equal(holds({ field: "source", op: "one_of", values: ["SRC-WEB"] }, {}), false);
    assert.equal(holds({ field: "web_form", op: "one_of", values: ["form-1"] }, { formId: "form-1" }), true);
    assert.equal(holds({ field: "web_form", op: "one_of", values: ["form-1"] }, {}), false);
    assert.equal(holds({ field: "connection", op: "one_of", values: ["c-1"] }, { connectionId: "c-1" }), true);
    assert.equal(holds({ field: "api_key", op: "one_of", values: ["key-1"] }, {}), true);
  });

  it("read the phone's country code, else the mobile's, with or without '+'", () => {
    assert.equal(holds({ field: "phone_country", op: "one_of", values: ["44"] }, { phoneCountryCode: "+44" }), true);
    assert.equal(holds({ field: "phone_country", op: "equals", values: ["+1"] }, { mobileCountryCode: "+1" }), true);
    assert.equal(
      holds({ field: "phone_country", op: "equals", values: ["+1"] }, { phoneCountryCode: "+44", mobileCountryCode: "+1" }),
      false,
    );
    assert.equal(holds({ field: "phone_country", op: "equals", values: ["+4"] }, { phoneCountryCode: "+44" }), false);
  });

  it("test an extra field by its name, any of a checkbox group's values, numbers and booleans as text", () => {
    const extraFields = { plan: "Enterprise", interests: ["CRM", "Billing"], seats: 50, trial: true, __proto__x: "y" };
    assert.equal(holds({ field: "extra:plan", op: "equals", values: ["enterprise"] }, { extraFields }), true);
    assert.equal(holds({ field: "extra:interests", op: "one_of", values: ["billing"] }, { extraFields }), true);
    assert.equal(holds({ field: "extra:seats", op: "equals", values: ["50"] }, { extraFields }), true);
    assert.equal(holds({ field: "extra:trial", op: "equals", values: ["true"] }, { extraFields }), true);
    assert.equal(holds({ field: "extra:toString", op: "contains", values: ["function"] }, { extraFields }), false);
  });
});

describe("routeLead", () => {
  const members = { ada: member(), ben: member(), cy: member() };

  it("assigns by the first rule whose conditions all hold, in order", () => {
    const google = { field: "utm_source", op: "equals", values: ["google"] } as const;
    const uk = { field: "phone_country", op: "one_of", values: ["+44"] } as const;
    const rules = [rule("uk-google", [google, uk], ["ada"]), rule("google", [google], ["ben"]), rule("any", [], ["cy"])];
    const r = routing(rules, members);
    const pick = (fields: Partial<RoutedLead>) => routeLead(r, lead(fields), NOW);
    assert.deepEqual(pick({ utmSource: "google", phoneCountryCode: "+44" }), {
      kind: "owner",
      userId: "ada",
      ruleId: "uk-google",
      reason: "rule",
    });
    assert.deepEqual(pick({ utmSource: "google", phoneCountryCode: "+1" }), {
      kind: "owner",
      userId: "ben",
      ruleId: "google",
      reason: "rule",
    });
    assert.deepEqual(pick({ utmSource: "bing" }), { kind: "owner", userId: "cy", ruleId: "any", reason: "rule" });
  });

  it("leaves a lead no rule matches unassigned, or gives it to the team's fallback member", () => {
    const rules = [rule("google", [{ field: "utm_source", op: "equals", values: ["google"] }], ["ada"])];
    assert.deepEqual(routeLead(routing(rules, members), lead(), NOW), { kind: "unassigned", ruleId: null });
    assert.deepEqual(routeLead(routing(rules, members, "ben"), lead(), NOW), {
      kind: "owner",
      userId: "ben",
      ruleId: null,
      reason: "team_fallback",
    });
    assert.deepEqual(
      routeLead(routing(rules, members, "gone"), lead(), NOW),
      { kind: "unassigned", ruleId: null },
      "a fallback who left is nobody",
    );
  });

  it("skips away and off-duty members; with nobody on duty, the rule's fallback or nobody (no later rule)", () => {
    const away = member({ away: true, awayUntil: null, workingHours: null });
    const offDuty = member({
      away: false,
      awayUntil: null,
      workingHours: { timeZone: "UTC", days: [1, 2, 3, 4, 5], start: "13:00", end: "17:00" },
    });
    const r = (fallbackUserId: string | null) =>
      routing([rule("rr", [], ["ada", "ben"], { fallbackUserId }), rule("later", [], ["cy"])], { ada: away, ben: offDuty, cy: member() });
    assert.deepEqual(routeLead(r("cy"), lead(), NOW), { kind: "owner", userId: "cy", ruleId: "rr", reason: "rule_fallback" });
    assert.deepEqual(routeLead(r(null), lead(), NOW), { kind: "unassigned", ruleId: "rr" });
    const oneOn = routing([rule("rr", [], ["ada", "ben", "cy"])], { ada: away, ben: offDuty, cy: member() });
    assert.deepEqual(routeLead(oneOn, lead(), NOW), {
      kind: "turn",
      ruleId: "rr",
      userIds: ["ada", "ben", "cy"],
      onDuty: [false, false, true],
    });
    const single = routing([rule("one", [], ["ada"], { fallbackUserId: "ben" })], { ada: away, ben: member() });
    assert.deepEqual(routeLead(single, lead(), NOW), { kind: "owner", userId: "ben", ruleId: "one", reason: "rule_fallback" });
  });

  it("with nobody on duty and the fallback 'later', the lead waits (an import's stays unassigned); with someone on duty, as ever", () => {
    const away = member({ away: true, awayUntil: null, workingHours: null });
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        fc.constantFrom<"member" | "round_robin">("member", "round_robin"),
        (duty, later, mode) => {
          const ids = (mode === "member" ? duty.slice(0, 1) : duty).map((_, i) => `m${i}`);
          const members = Object.fromEntries(ids.map((id, i) => [id, duty[i] ? member() : away]));
          const r = routing([rule("r", [], ids, { mode, fallbackLater: later }), rule("next", [], ["cy"])], { ...members, cy: member() });
          const plan = planLead(r, lead(), NOW);
          const nobody = !ids.some((_, i) => duty[i]);
          if (nobody && later) {
            assert.deepEqual(plan, { kind: "wait", ruleId: "r" });
            assert.deepEqual(routeLead(r, lead(), NOW), { kind: "unassigned", ruleId: "r" });
          } else {
            assert.notEqual(plan.kind, "wait");
            assert.deepEqual(routeLead(r, lead(), NOW), plan);
            assert.equal(plan.kind === "unassigned", nobody);
          }
        },
      ),
    );
  });

  it("never assigns someone who is no member of the team", () => {
    const r = routing([rule("rr", [], ["left", "ada"])], { ada: member() });
    assert.deepEqual(routeLead(r, lead(), NOW), { kind: "owner", userId: "ada", ruleId: "rr", reason: "rule" });
    const nobody = routing([rule("rr", [], ["left"], { fallbackUserId: "also-left" })], { ada: member() });
    assert.deepEqual(routeLead(nobody, lead(), NOW), { kind: "unassigned", ruleId: "rr" });
  });
});

describe("pickTurn", () => {
  it("gives n × k consecutive leads to n members on duty exactly k each, in order", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 10 }), fc.nat(1000), (n, k, start) => {
        const counts = new Array<number>(n).fill(0);
        let turn = start;
        const order: number[] = [];
        for (let i = 0; i < n * k; i++) {
          const picked = pickTurn(turn, new Array<boolean>(n).fill(true))!;
          counts[picked.index]!++;
          order.push(picked.index);
          turn = picked.nextTurn;
        }
        assert.ok(counts.every((count) => count === k));
        for (let i = 1; i < order.length; i++) assert.equal(order[i], (order[i - 1]! + 1) % n);
      }),
    );
  });

  it("picks the first member on duty from the turn on, and nobody when none is", () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 20 }), fc.nat(10_000), (mask, turn) => {
        const picked = pickTurn(turn, mask);
        if (!mask.some(Boolean)) return assert.equal(picked, null);
        assert.ok(picked);
        assert.equal(mask[picked.index], true);
        assert.equal(picked.nextTurn, picked.index + 1);
        const n = mask.length;
        for (let k = 0; (turn % n) + k < (turn % n) + ((picked.index - (turn % n) + n) % n); k++)
          assert.equal(mask[((turn % n) + k) % n], false);
      }),
    );
  });
});
