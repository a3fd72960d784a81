/** The shared test server's METRICS_TOKEN (playwright.config.ts), for e2e/api/operations.spec.ts. */
export const E2E_METRICS_TOKEN = "e2e-metrics-token-0123456789";
