import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Condition } from "@/lib/routing/rule-conditions";
import { describeAssignee, describeCondition, describeConditions, describeFallback, outcomeText, type RoutingChoices } from "./rule-words";

// Settings → Lead Routing in words: a rule's conditions, who gets its leads, and "Test a lead"'s answer.

const choices: RoutingChoices = {
  members: [
    { id: "u-ada", short: "Ada", long: "Ada (ada@example.com)" },
    { id: "u-ben", short: "ben@example.com", long: "ben@example.com" },
    { id: "u-cy", short: "Cy", long: "Cy (cy@example.com)" },
  ],
  origins: {
    source: [
      { value: "src-web", label: "Website" },
      { value: "src-ads", label: "Ads" },
    ],
    web_form: [{ value: "form-1", label: "Contact form" }],
    connection: [],
    api_key: [{ value: "key-1", label: "Landing page (key-1)" }],
  },
};

const CONDITIONS: [Condition, string][] = [
  [{ field: "utm_source", op: "one_of", values: ["google", "bing"] }, "UTM source is one of google, bing"],
  [{ field: "utm_source", op: "equals", values: ["google"] }, "UTM source is google"],
  [{ field: "source", op: "one_of", values: ["src-web"] }, "Source is Website"],
  [{ field: "source", op: "one_of", values: ["src-web", "src-gone"] }, "Source is one of Website, a deleted source"],
  [{ field: "web_form", op: "one_of", values: ["form-1"] }, "Web form is Contact form"],
  [{ field: "api_key", op: "one_of", values: ["key-1"] }, "API key is Landing page (key-1)"],
  [{ field: "connection", op: "one_of", values: ["conn-gone"] }, "Connection is a deleted connection"],
  [{ field: "phone_country", op: "equals", values: ["+44"] }, "Phone country is +44"],
  [{ field: "email", op: "contains", values: ["@acme.example"] }, "Email contains @acme.example"],
  [{ field: "organization", op: "contains", values: ["acme", "globex"] }, "Organization contains any of acme, globex"],
  [{ field: "extra:favourite_colour", op: "one_of", values: ["green"] }, "Extra field favourite_colour is green"],
];

describe("rule words", () => {
  for (const [condition, words] of CONDITIONS) {
    it(`says ${words}`, () => assert.equal(describeCondition(condition, choices), words));
  }

  it("says 'Any lead' for a rule without conditions", () => {
    assert.deepEqual(describeConditions({ conditions: [] }, choices), ["Any lead"]);
  });

  it("names who gets the leads, and a member who has left as such", () => {
    assert.equal(describeAssignee({ mode: "member", userIds: ["u-ada"] }, choices.members), "Ada");
    assert.equal(describeAssignee({ mode: "member", userIds: ["u-gone"] }, choices.members), "A former member");
    assert.equal(
      describeAssignee({ mode: "round_robin", userIds: ["u-cy", "u-ada", "u-gone", "u-ben"] }, choices.members),
      "Round robin: Cy, Ada, a former member, ben@example.com",
    );
    const fallback = (fallbackUserId: string | null, fallbackLater = false) =>
      describeFallback({ fallbackUserId, fallbackLater }, choices.members);
    assert.equal(fallback(null), "Unassigned");
    assert.equal(fallback("u-cy"), "Cy");
    assert.equal(fallback("u-gone"), "A former member");
    assert.equal(fallback(null, true), "The next member on duty, later");
  });

  it("answers 'Test a lead' in one sentence", () => {
    const rule = { id: "r1", name: "Google Ads" };
    const ada = { id: "u-ada", email: "ada@example.com", name: "Ada" };
    const ben = { id: "u-ben", email: "ben@example.com", name: null };
    assert.equal(outcomeText({ rule: null, owner: null, because: "No rule matches it." }), "No rule matches → unassigned.");
    assert.equal(outcomeText({ rule, owner: ada, because: "It is her turn." }), "Matches rule 'Google Ads' → Ada. It is her turn.");
    assert.equal(
      outcomeText({ rule: null, owner: ben, because: "The fallback gets it." }),
      "No rule matches → ben@example.com. The fallback gets it.",
    );
    assert.equal(
      outcomeText({ rule, owner: null, because: "Nobody is on duty." }),
      "Matches rule 'Google Ads' → unassigned. Nobody is on duty.",
    );
  });
});
