# tests/e2e_lib.sh -- what the end-to-end scripts share; source it after the
# argument checks. Gives a temporary folder $TMP (removed on exit), the
# counters, ok / bad NAME [DETAIL...] (a failure prints FAIL: NAME and each
# detail line indented), and e2e_finish: the closing "N passed, M failed"
# line, with the status to exit with.
TMP=$(mktemp -d) || exit 2
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0

ok() { passed=$((passed + 1)); }
bad() {
    failed=$((failed + 1))
    echo "FAIL: $1"
    [ $# -gt 1 ] && printf '      %s\n' "${@:2}"
    return 0
}

e2e_finish() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
