import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { splitName } from "./name";

describe("splitName (spec 2.1: first word → first name, the rest → last name)", () => {
  const cases: { input: string; firstName: string; lastName: string | null; fullName: string }[] = [
    { input: "Ada Lovelace", firstName: "Ada", lastName: "Lovelace", fullName: "Ada Lovelace" },
    { input: "  Ada Lovelace  ", firstName: "Ada", lastName: "Lovelace", fullName: "Ada Lovelace" },
    { input: "Ada   King\t\tLovelace", firstName: "Ada", lastName: "King Lovelace", fullName: "Ada King Lovelace" },
    { input: "Ada\nLovelace", firstName: "Ada", lastName: "Lovelace", fullName: "Ada Lovelace" },
    { input: "Cher", firstName: "Cher", lastName: null, fullName: "Cher" },
    { input: "  Cher  ", firstName: "Cher", lastName: null, fullName: "Cher" },
    { input: "José María de la Cruz", firstName: "José", lastName: "María de la Cruz", fullName: "José María de la Cruz" },
  ];
  for (const { input, ...expected } of cases) {
    test(`${JSON.stringify(input)} → ${JSON.stringify(expected.firstName)} / ${JSON.stringify(expected.lastName)}`, () => {
      assert.deepEqual(splitName(input), expected);
    });
  }
});
