// Prettier formats the whole tree; `npm test` checks it (`prettier --check .`).
// 140 columns: the code's long, documented one-liners read better unwrapped.
const config = { printWidth: 140 };

export default config;
