#!/usr/bin/env bash
# Sets up DataStax sperf (github.com/datastax-labs/sperf, Apache-2.0) for `npm run bench` (BENCH_ONLY=sperf):
# the source and its test data at a pinned commit, and a Python venv with sperf installed, all under
# ~/.cache/cql-tuner/sperf (override with CQL_TUNER_SPERF_HOME) and never inside the repository.
# sperf has no runtime dependencies; pip only builds it with setuptools.
set -euo pipefail
COMMIT="${SPERF_COMMIT:-b3f66da39276fa5a86b479cb76c113ac4e7f8a93}"
HOME_DIR="${CQL_TUNER_SPERF_HOME:-$HOME/.cache/cql-tuner/sperf}"
SRC="$HOME_DIR/src"
VENV="$HOME_DIR/venv"
mkdir -p "$HOME_DIR"
if [ ! -f "$SRC/.commit" ] || [ "$(cat "$SRC/.commit")" != "$COMMIT" ]; then
  rm -rf "$SRC.tmp" && mkdir -p "$SRC.tmp"
  if [ -n "${SPERF_GIT_DIR:-}" ]; then
    # a local clone or bare mirror of the repository (no network needed)
    git --git-dir="$SPERF_GIT_DIR" archive "$COMMIT" | tar -x -C "$SRC.tmp"
  else
    curl -fsSL "https://codeload.github.com/datastax-labs/sperf/tar.gz/$COMMIT" | tar -xz --strip-components=1 -C "$SRC.tmp"
  fi
  echo "$COMMIT" > "$SRC.tmp/.commit"
  rm -rf "$SRC" && mv "$SRC.tmp" "$SRC"
fi
if [ ! -x "$VENV/bin/sperf" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "$SRC"
fi
"$VENV/bin/sperf" --help > /dev/null
echo "sperf $COMMIT ready: $VENV/bin/sperf (test data in $SRC/tests/testdata)"
