#!/bin/sh
# fuzz_replay.sh — the front end on the fuzzer's seed corpus and on every
# input that ever crashed it (tests/fuzz/), through tests/fuzz/replay, which
# speaks TAP itself: a crash or a sanitizer report fails the test.
here=$(cd "$(dirname "$0")/.." && pwd)
replay=$(dirname "${MOSAICC:-./mosaicc}")/tests/fuzz/replay
[ -x "$replay" ] || { echo "1..0 # SKIP no $replay"; exit 0; }
set -- "$here"/fuzz/corpus/*.mos
for f in "$here"/fuzz/crashes/*.mos; do [ -e "$f" ] && set -- "$@" "$f"; done
exec "$replay" "$@"
