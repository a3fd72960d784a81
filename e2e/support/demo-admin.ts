import { DEFAULT_DEMO_ADMIN_EMAIL } from "../../lib/setup/seed";

// The seed has no default password (docs/security.md "Demo admin"): every server the
// suites start (playwright.config.ts, server-process.ts) gets this one through
// DEMO_ADMIN_PASSWORD, so tests can sign in as the demo admin.
export const DEMO_ADMIN = { email: DEFAULT_DEMO_ADMIN_EMAIL, password: "e2e-demo-admin-passphrase" } as const;
