// ESLint: Next's rules (React, react-hooks, jsx-a11y, import, typescript-eslint) and the
// direction of imports in docs/development.md ("Which way imports go"), stores that only
// store among it. `npm test` runs it first; scripts/lint-rules.test.ts proves each
// direction rule fails when broken.
import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

// A test's shared setup (*.fixtures.ts, beside the test files that import it) is test code too.
const TESTS = ["**/*.test.ts", "**/*.fixtures.ts", "**/*.spec.ts", "e2e/**", "test/**"];
// Code that runs the tests (not the product) may use the test helpers too.
const TEST_RUNNERS = ["scripts/test.ts", "scripts/test-container.ts", "scripts/check-migrations.ts", "playwright.config.ts"];

/** Zones that hold for every file, tests included. */
const everywhere = [
  {
    target: "./lib",
    from: ["./app", "./components"],
    message: "lib/ is below the pages and routes: move what both need into lib/.",
  },
  {
    // Components call the server actions that live beside their routes; nothing else of app/.
    target: "./components",
    from: "./app/**/!(actions|sign-out-action).{ts,tsx}",
    message: "Components are used by pages, never the other way round (server actions excepted).",
  },
];

const config = [
  { ignores: ["lib/generated/**", ".next/**", "node_modules/**", "test-results/**", "next-env.d.ts", "bench/results/**"] },
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    rules: {
      "import/no-restricted-paths": ["error", { zones: everywhere }],
      "no-control-regex": "error",
      // A leading underscore names a value that is deliberately left unused (a destructured
      // field dropped on purpose, an iteration that only counts).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", caughtErrors: "none" },
      ],
    },
  },
  {
    files: ["**/*.ts", "**/*.tsx", "**/*.mjs"],
    ignores: [...TESTS, ...TEST_RUNNERS],
    rules: {
      // Import cycles between product files are checked by scripts/check-cycles.ts (madge), a
      // step of npm test beside this lint: import/no-cycle cost 70 % of the lint's time.
      "import/no-restricted-paths": [
        "error",
        {
          zones: [
            ...everywhere,
            {
              target: "./",
              from: ["./test", "./e2e"],
              message: "Test helpers are for tests only.",
            },
            {
              // Channels (create_lead, web forms: lib/intake) call the domain, never the reverse.
              target: "./lib/!(intake|startup)/**/*",
              from: "./lib/intake",
              message: "Domain code never imports a channel (lib/intake): move what both need into the domain folder.",
            },
          ],
        },
      ],
    },
  },
  {
    // A store only stores (docs/development.md "Which way imports go"): the audited changes
    // (the transaction, the rule, the audit event) are the use cases beside it, *-changes.ts,
    // which call the store and never the other way round.
    files: ["lib/**/*-store.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "(^|/)audit/audit-log$",
              importNames: ["recordAuditEvent"],
              message: "A store only stores: write the audit event in the use case (*-changes.ts) that opens the transaction.",
            },
            {
              regex: "-changes$",
              message: "A store never imports a use case: *-changes.ts calls the store, not the other way round.",
            },
          ],
        },
      ],
    },
  },
  {
    // React's rules of hooks are for React code. Elsewhere a `use…` name is not a hook:
    // Playwright's fixtures call `use`, node:test files call `useTestDatabase`.
    files: ["**/*.ts"],
    ignores: ["app/**", "components/**"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
];

export default config;
