// Operator CLI: move a deployment to another database (docs/operations.md "Move from
// SQLite to PostgreSQL"). Stop the app first; DATABASE_URL (or the default SQLite file)
// is the source.
//   npm run copy-database -- --to postgresql://user:pass@host/db
import { parseArgs } from "node:util";
import { databaseUrl } from "../lib/db/database-url";
import { CopyRefused, copyDatabase } from "../lib/operations/copy-database";

const { values } = parseArgs({ options: { to: { type: "string" } } });
if (!values.to) {
  console.error("Usage: npm run copy-database -- --to postgresql://…   (the source is DATABASE_URL)");
  process.exit(2);
}
const from = databaseUrl();
let lastTable = "";
copyDatabase(from, values.to, (table, rows) => {
  if (table !== lastTable) process.stdout.write(`${lastTable ? "\n" : ""}${table}: `);
  lastTable = table;
  process.stdout.write(`\r${table}: ${rows} rows`);
})
  .then((report) => {
    console.log(`\nCopied ${report.reduce((sum, t) => sum + t.rows, 0)} rows in ${report.length} tables.`);
    console.log("Now set DATABASE_URL to the new database and start the app; keep DATA_DIR's key files.");
  })
  .catch((error: unknown) => {
    console.error(`\n${error instanceof CopyRefused ? error.message : error}`);
    process.exit(1);
  });
