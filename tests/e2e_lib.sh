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

# run_json NAME ARGS...: gpusim run ARGS --json into $TMP/NAME.json; checks
# that it exits 0 and that every variant passed its checks.
run_json() {
    local name=$1
    shift
    "$GPUSIM" run "$@" --json >"$TMP/$name.json" 2>"$TMP/$name.err"
    local rc=$?
    if [ "$rc" != 0 ]; then
        bad "gpusim run $* exited $rc"
        sed 's/^/    /' "$TMP/$name.err" | head -5
        return 1
    fi
    if python3 -c "import json, sys
d = json.load(open('$TMP/$name.json'))
bad = [v['name'] for v in d['variants'] if v['check'] != 'pass']
if bad: print('    not passed:', ', '.join(bad))
sys.exit(1 if bad or not d['variants'] else 0)"; then
        ok
    else
        bad "gpusim run $*: a variant did not pass"
    fi
}

# effect NAME MESSAGE PYTHON: runs PYTHON with v[variant] = that variant's
# object of $TMP/NAME.json, st[variant] = its stats and cy[variant] = its
# cycles; a failed assertion (its message is printed) fails the test.
effect() {
    if python3 -c "import json, sys
d = json.load(open('$TMP/$1.json'))
v = {x['name']: x for x in d['variants']}
st = {k: x['stats'] for k, x in v.items()}
cy = {k: x['cycles'] for k, x in v.items()}
try:
$(printf '%s\n' "$3" | sed 's/^/    /')
except (AssertionError, KeyError, TypeError, ZeroDivisionError) as e:
    print('    ' + repr(e))
    sys.exit(1)"; then
        ok
    else
        bad "$2"
    fi
}
