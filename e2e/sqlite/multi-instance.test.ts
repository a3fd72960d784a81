import { after, before, test } from "node:test";
import { db } from "../../lib/db/client";
import { startSqliteDeployment, type Instances } from "../support/app-instances";
import { burstOfOnePerson, BURST_TITLE } from "../support/repeat-burst";

// Two `next start` processes on two ports against one SQLite file, as two `npm start` on one
// machine: a person's submissions are serialised by the database's write lock, which the
// lead's transaction holds while it reads the match (docs/leads.md "At the same moment").
// The PostgreSQL twin, with the rest of the multi-instance tests, is e2e/postgres/.

let deployment: Instances;

before(async () => {
  deployment = await startSqliteDeployment({ count: 2 });
});

after(async () => {
  await db().$disconnect();
  await deployment?.stop();
});

test(BURST_TITLE, async () => {
  const [a, b] = deployment.instances as [Instances["instances"][number], Instances["instances"][number]];
  await burstOfOnePerson(a, b);
});
