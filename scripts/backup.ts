// Operator CLI for backups of the embedded SQLite database (docs/operations.md "Backups"):
//   npm run backup -- <file>    a consistent online copy while the app keeps serving
//   npm run restore -- <file>   into a stopped deployment, after checking the file
// PostgreSQL deployments use pg_dump / pg_restore; these commands say so.
import path from "node:path";
import { databaseProvider, databaseUrl, sqliteFilePath } from "../lib/db/database-url";
import { BackupError, backupSqlite, restoreSqlite } from "../lib/operations/sqlite-backup";

const POSTGRES_HINT = `This deployment uses PostgreSQL: back it up with pg_dump, e.g.
  pg_dump --format=custom --file=lead-intake.dump "$DATABASE_URL"
and restore with
  pg_restore --clean --if-exists --dbname="$DATABASE_URL" lead-intake.dump
Keep DATA_DIR's key files (secret.key, auth.secret) with it, apart from the database backup.`;

async function main(command: string | undefined, file: string | undefined): Promise<void> {
  if ((command !== "backup" && command !== "restore") || !file) {
    console.error(`Usage: npm run ${command === "restore" ? "restore" : "backup"} -- <file>`);
    process.exit(2);
  }
  const url = databaseUrl();
  if (databaseProvider(url) === "postgres") {
    console.error(POSTGRES_HINT);
    process.exit(2);
  }
  const database = sqliteFilePath(url);
  const target = path.resolve(file);
  if (command === "backup") {
    const { leads } = await backupSqlite(database, target);
    console.log(`Backed up ${database} to ${target} (${leads} leads; integrity check ok).`);
    return;
  }
  const { leads } = restoreSqlite(target, database, process.env.DATA_DIR || "./data");
  console.log(`Restored ${target} into ${database} (${leads} leads; integrity check ok). The previous file is ${database}.before-restore.`);
  console.log("Start the app with npm start: it applies any newer migrations first.");
}

main(process.argv[2], process.argv[3]).catch((error: unknown) => {
  console.error(error instanceof BackupError ? error.message : error);
  process.exit(1);
});
