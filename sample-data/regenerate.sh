#!/usr/bin/env bash
# Regenerates the committed sample files (needs `npm run build` first). test/sample/cli.test.ts checks
# that these commands reproduce them byte for byte.
set -euo pipefail
cd "$(dirname "$0")/.."
node bin/outlay.js sample --rows 1000 --seed 2026 --bad-rows 10 --out sample-data/households.csv
node bin/outlay.js sample --rows 1000 --seed 2026 --bad-rows 10 --out sample-data/households.arrow
