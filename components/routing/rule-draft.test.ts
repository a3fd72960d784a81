import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { StoredRule } from "@/lib/routing/assignment-rules";
import { conditionSchema, ORIGIN_FIELDS, TEXT_FIELDS, type Condition } from "@/lib/routing/rule-conditions";
import { draftOf, EXTRA_CHOICE, inputOf, LATER_CHOICE, newCondition, splitValues, withField } from "./rule-draft";
import { ORIGIN_FIELD_NAMES, TEXT_FIELD_NAMES } from "./rule-words";

// The rule editor's state and the rule it saves (Settings → Lead Routing): values typed in one
// box, an origin's ticked ids, the round robin's turn order, and members who have left.

const MEMBERS = ["u-ada", "u-ben", "u-cy", "u-dee"];

/** A value as an admin types it: no comma or line break inside, not blank. */
const value = fc
  .string({ minLength: 1, maxLength: 20 })
  .map((text) => text.replace(/[,\n\r]/g, "").trim())
  .filter((text) => text.length > 0);
const values = fc.uniqueArray(value, { minLength: 1, maxLength: 5 });

// Spread: fast-check's records have no prototype, the editor's conditions do.
const condition: fc.Arbitrary<Condition> = fc
  .oneof(
    fc.record({ field: fc.constantFrom(...ORIGIN_FIELDS), op: fc.constant("one_of" as const), values }),
    fc.record({ field: fc.constantFrom(...TEXT_FIELDS, "phone_country"), op: fc.constantFrom("equals", "contains", "one_of"), values }),
    fc.record({
      field: value.filter((name) => name === name.trim()).map((name) => `extra:${name}`),
      op: fc.constantFrom("equals", "contains", "one_of"),
      values,
    }),
  )
  .map((made) => ({ ...made }));

const rule: fc.Arbitrary<StoredRule> = fc
  .record({
    name: value,
    enabled: fc.boolean(),
    conditions: fc.array(condition, { maxLength: 4 }),
    rotation: fc.shuffledSubarray(MEMBERS, { minLength: 1 }),
    roundRobin: fc.boolean(),
    // A member, nobody, or "later" (the next member on duty): never both.
    fallback: fc.option(fc.constantFrom(...MEMBERS, "later"), { nil: null }),
  })
  .map(({ rotation, roundRobin, fallback, ...rest }) => ({
    ...rest,
    fallbackUserId: fallback === "later" ? null : fallback,
    fallbackLater: fallback === "later",
    id: "rule-1",
    position: 1,
    mode: roundRobin ? "round_robin" : "member",
    userIds: roundRobin ? rotation : rotation.slice(0, 1),
  }));

const saved = (stored: StoredRule) => ({
  name: stored.name,
  enabled: stored.enabled,
  conditions: stored.conditions,
  mode: stored.mode,
  userIds: stored.userIds,
  fallbackUserId: stored.fallbackUserId,
  fallbackLater: stored.fallbackLater,
});

describe("rule editor: draft and saved rule", () => {
  it("knows every condition field the routing knows", () => {
    assert.deepEqual([...ORIGIN_FIELD_NAMES].sort(), [...ORIGIN_FIELDS].sort());
    assert.deepEqual([...TEXT_FIELD_NAMES].sort(), [...TEXT_FIELDS].sort());
  });

  it("splits typed values at commas and line breaks, trimmed, without blanks or repeats", () => {
    const separator = fc.constantFrom(",", ", ", "\n", " ,\n ", ",,");
    fc.assert(
      // A few common values make repeats likely.
      fc.property(
        fc.array(fc.oneof(value, fc.constantFrom("google", "bing")), { minLength: 1, maxLength: 8 }),
        fc.array(separator, { minLength: 8, maxLength: 8 }),
        (typed, seps) => {
          const text = typed.map((item, index) => ` ${item} ${seps[index]}`).join("");
          assert.deepEqual(splitValues(text), [...new Set(typed)]);
        },
      ),
    );
    assert.deepEqual(splitValues(" , \n,"), []);
    assert.deepEqual(splitValues("google, bing\ngoogle"), ["google", "bing"]);
  });

  it("saves an unchanged rule as it was: conditions, turn order, fallback", () => {
    fc.assert(
      fc.property(rule, (stored) => {
        const input = inputOf(draftOf(stored, MEMBERS));
        assert.deepEqual(input, saved(stored));
        for (const item of input.conditions) assert.ok(conditionSchema.safeParse(item).success, JSON.stringify(item));
      }),
    );
  });

  it("drops members who have left the team, keeping the others' order", () => {
    const stored: StoredRule = {
      id: "r",
      position: 1,
      name: "Ads",
      enabled: true,
      conditions: [],
      mode: "round_robin",
      userIds: ["u-cy", "u-gone", "u-ada"],
      fallbackUserId: "u-gone",
      fallbackLater: false,
    };
    const draft = draftOf(stored, MEMBERS);
    assert.deepEqual(draft.order, ["u-cy", "u-ada", "u-ben", "u-dee"]);
    assert.deepEqual(inputOf(draft).userIds, ["u-cy", "u-ada"]);
    assert.equal(inputOf(draft).fallbackUserId, null);
  });

  it("saves the fallback 'the next member on duty, when one is' as fallbackLater, without a member", () => {
    const draft = { ...draftOf(null, MEMBERS), single: "u-ada", fallback: LATER_CHOICE };
    assert.equal(inputOf(draft).fallbackLater, true);
    assert.equal(inputOf(draft).fallbackUserId, null);
    assert.equal(inputOf({ ...draft, fallback: "u-ben" }).fallbackLater, false);
    assert.equal(inputOf({ ...draft, fallback: "u-ben" }).fallbackUserId, "u-ben");
  });

  it("takes a round robin's turns in the list's order, whatever order the boxes were ticked in", () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(MEMBERS, { minLength: 1 }), (ticked) => {
        const draft = { ...draftOf(null, MEMBERS), mode: "round_robin" as const, rotation: ticked };
        assert.deepEqual(
          inputOf(draft).userIds,
          MEMBERS.filter((id) => ticked.includes(id)),
        );
      }),
    );
  });

  it("gives a one-member rule the chosen member only, and none before one is chosen", () => {
    const draft = { ...draftOf(null, MEMBERS), rotation: ["u-ada", "u-ben"] };
    assert.equal(draft.mode, "member");
    assert.deepEqual(inputOf(draft).userIds, []);
    assert.deepEqual(inputOf({ ...draft, single: "u-ben" }).userIds, ["u-ben"]);
  });

  it("sends an origin field as 'one of' its ticked ids, and an extra field by its typed name", () => {
    const typed = { ...newCondition(0), op: "contains" as const, text: "google" };
    const source = { ...withField(typed, "source"), picked: ["src-1", "src-2"] };
    const extra = { ...withField(typed, EXTRA_CHOICE), extraName: " favourite_colour " };
    const draft = { ...draftOf(null, MEMBERS), name: "R", single: "u-ada", conditions: [source, extra] };
    assert.deepEqual(inputOf(draft).conditions, [
      { field: "source", op: "one_of", values: ["src-1", "src-2"] },
      { field: "extra:favourite_colour", op: "contains", values: ["google"] },
    ]);
    // Back to a text field: the ids are not kept as typed values.
    assert.deepEqual(withField(source, "utm_source").picked, []);
    assert.equal(withField(source, "utm_source").text, "");
  });
});
