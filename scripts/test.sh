#!/usr/bin/env bash
# Every check the project has: lint, types, then the whole test suite on both cores.
set -euo pipefail
cd "$(dirname "$0")/.."
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
python3 -m ruff check companion vision hardware tests benchmarks
python3 -m mypy companion vision hardware benchmarks
python3 -m pytest -n 2 tests "$@"
