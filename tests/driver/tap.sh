# tests/driver/tap.sh — how every driver test begins (sourced, never run):
# the compiler under test ($MOSAICC, else ./mosaicc), a scratch directory
# $tmp removed at exit, and `check DESCRIPTION STATUS`, which prints one
# TAP line for the status of a condition and remembers a failure in
# $failed.
mosaicc=${MOSAICC:-./mosaicc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mosaic-driver.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0
check() {   # check DESCRIPTION STATUS-OF-THE-CONDITION
    n=$((n + 1))
    if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; failed=1; fi
}
