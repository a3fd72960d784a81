// Runs once when a Next.js server process starts (`next start`, or scripts/serve.mjs under
// `npm start`): every instance runs its own outbox dispatcher (lib/startup/dispatchers.ts).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const { startProcessDispatcher } = await import("./lib/startup/dispatchers");
  startProcessDispatcher();
}
