import assert from "node:assert/strict";
import { test } from "node:test";
import { db } from "../db/client";
import { useTestDatabase } from "../../test/support/test-database";

// PostgreSQL pass of `npm test` only. The lead list's prefix search must be an index range
// at any size: PostgreSQL derives one from LIKE 'prefix%' only under the "C" collation,
// which the search-key columns get from migration 20261123300000_search_keys_c_collation
// whatever the database's own collation is. Without it the search read every lead of the
// team (655 ms at a million, docs/performance.md "What limits each number"). What this checks is the
// collation itself: the private test cluster's initdb inherits this machine's C locale,
// under which the index range works with or without it, so a plan test could not fail here.

await useTestDatabase({ provider: "postgres" });

const SEARCH_KEYS = ["emailKey", "lastNameKey", "nameKey", "organizationKey"];

test("the lead search keys have the C collation", async () => {
  const rows = await db().$queryRaw<{ column: string; collation: string | null }[]>`
    SELECT column_name::text AS "column", collation_name::text AS "collation" FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = 'Lead' AND column_name IN ('emailKey', 'lastNameKey', 'nameKey', 'organizationKey')
    ORDER BY column_name`;
  assert.deepEqual(
    rows,
    SEARCH_KEYS.map((column) => ({ column, collation: "C" })),
  );
});
