#!/bin/sh
# Build a small base project by running the real program on part of its bundled notes.
# Usage: make_base.sh CITEKIT_EXE OUT_DIR
set -eu
CITEKIT=${1:?usage: make_base.sh CITEKIT_EXE OUT_DIR}
OUT=${2:?usage: make_base.sh CITEKIT_EXE OUT_DIR}
SRC_NOTES=${CITEKIT_BASE_NOTES:-$(dirname "$0")/../../notes}
rm -rf "$OUT"
mkdir -p "$OUT"
"$CITEKIT" init -q "$OUT"
mkdir -p "$OUT/notes"
# first 120 lines of the bundled trip report: a handful of papers, enough for a real refs/
head -n 120 "$SRC_NOTES/notes-icml2026-trip-report.txt" > "$OUT/notes/trip.txt"
"$CITEKIT" -C "$OUT" sync --offline -q
# the cache folder is local state, not something a repository ships
rm -rf "$OUT/.citekit"
ls "$OUT/refs/library.bib" "$OUT/refs/library.yaml" >/dev/null
