#!/bin/sh
# Run by the Containerfile's build stage after `next build` and `npm prune --omit=dev`: removes
# what no production process loads (the server, scripts/start.ts, the operator CLIs, the
# Prisma CLI's migrate deploy), to keep the image under 450 MB. `npm run test:container`
# runs all of them on the trimmed image.
set -eu

# next.config.ts is transpiled by Next's SWC binary (97 MB) each time the server starts on
# Node 20; bundled once to plain JavaScript with esbuild (tsx's), the binary is not needed.
node_modules/.bin/esbuild next.config.ts --bundle --platform=node --format=esm --packages=external \
  --log-level=warning --outfile=next.config.mjs
rm next.config.ts

# Source maps of the build; the server runs without them.
find .next -name "*.map" -type f -delete
rm -rf .next/cache .next/trace .next/trace-build .next/types .next/diagnostics

cd node_modules
rm -rf @next/swc-*
# Optional peers that `npm prune --omit=dev` keeps (dev dependencies of ours): nothing at
# run time imports them.
rm -rf typescript playwright playwright-core @playwright .bin/tsc .bin/tsserver .bin/playwright*
# sharp: Next's image optimizer (next/image), which the app does not use.
rm -rf sharp @img
# better-sqlite3 compiled from source: keep the addon, drop the sources and objects.
rm -rf better-sqlite3/deps better-sqlite3/src better-sqlite3/build/Release/obj* better-sqlite3/build/Release/.deps \
  better-sqlite3/build/deps better-sqlite3/build/Release/test_extension.node
# Prisma: the engines of databases other than SQLite and PostgreSQL, and the query engine
# library (our clients are engineType "client": the query compiler).
for db in mysql sqlserver cockroachdb; do
  rm -f @prisma/client/runtime/*."$db".* prisma/build/*."$db".*
done
rm -f @prisma/client/runtime/query_engine_bg.* prisma/build/query_engine_bg.*
# Next: its documentation, the ES module copy of dist (bundlers only), React's experimental
# channel (used only with experimental flags this app does not set) and webpack's React
# server bindings (the build is Turbopack's).
rm -rf next/dist/docs next/dist/esm next/dist/compiled/react-dom-experimental \
  next/dist/compiled/react-server-dom-turbopack-experimental next/dist/compiled/react-server-dom-webpack-experimental \
  next/dist/compiled/react-server-dom-webpack next/dist/compiled/react-experimental
find . -name "*.map" -type f -delete
find . \( -name "*.md" -o -name "*.d.ts" -o -name "*.d.mts" -o -name "*.d.cts" \) -type f -delete
