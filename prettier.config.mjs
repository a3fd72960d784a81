// Prettier formats the whole tree; `npm test` checks it (`prettier --check .`).
// 140 columns: the code's long, documented one-liners read better unwrapped.
const config = {
  printWidth: 140,
  // The attribution script runs as written in any visitor's browser, old ones included:
  // no trailing comma after a call's last argument (a syntax error before ES2017).
  overrides: [{ files: ["lib/attribution/*.js"], options: { trailingComma: "es5" } }],
};

export default config;
