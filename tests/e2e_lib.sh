# tests/e2e_lib.sh -- what the end-to-end scripts share; source it after the
# argument checks. Gives a temporary folder $TMP (removed on exit), the
# counters, ok / bad NAME [DETAIL...] (a failure prints FAIL: NAME and each
# detail line indented), and e2e_finish: the closing "N passed, M failed"
# line, with the status to exit with. The expect_* checks run the program
# under test, $E2E_PROGRAM (set it after sourcing), through e2e_run.
# --threads N runs N threads here even on a busy host (by default a launch
# takes no more than the cores free): the tests exercise what they ask for
export GPUSIM_THREADS_EXACT=1
TMP=$(mktemp -d) || exit 2
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0
OUT=$TMP/stdout
ERR=$TMP/stderr
E2E_PROGRAM=${E2E_PROGRAM:-}

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

# e2e_run ARGS...: runs $E2E_PROGRAM, stdout to $OUT, stderr to $ERR, status to $rc
e2e_run() {
    "$E2E_PROGRAM" "$@" >"$OUT" 2>"$ERR"
    rc=$?
}

# expect_rc NAME STATUS ARGS...: the program with ARGS exits with STATUS
expect_rc() {
    local name=$1 want=$2
    shift 2
    e2e_run "$@"
    if [ "$rc" -eq "$want" ]; then ok; else bad "$name: exit $rc, want $want ($(basename "$E2E_PROGRAM") $*)" "$(head -n 3 "$ERR")"; fi
}

# expect_out NAME EXTENDED_REGEX: the last command's stdout matches
expect_out() {
    if grep -Eq -- "$2" "$OUT"; then ok; else bad "$1: stdout lacks /$2/" "$(head -n 5 "$OUT")"; fi
}

# expect_no_out NAME EXTENDED_REGEX: the last command's stdout does not match
expect_no_out() {
    if grep -Eq -- "$2" "$OUT"; then bad "$1: stdout has /$2/" "$(grep -E -m 3 -- "$2" "$OUT")"; else ok; fi
}

# expect_err NAME EXTENDED_REGEX: the last command's stderr matches
expect_err() {
    if grep -Eq -- "$2" "$ERR"; then ok; else bad "$1: stderr lacks /$2/" "$(head -n 3 "$ERR")"; fi
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
