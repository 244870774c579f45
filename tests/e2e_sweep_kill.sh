#!/usr/bin/env bash
# tests/e2e_sweep_kill.sh -- a sweep killed with SIGKILL at random moments
# and run again until it finishes loses nothing it did and repeats nothing:
# after every kill the --out file is the start of the uninterrupted sweep's
# lines (a torn last line aside), and the finished file equals it byte for
# byte; the same for two shards killed the same way and merged.
# usage: e2e_sweep_kill.sh GPUSIM_BINARY SOURCE_DIR
# E2E_SEED=N replays the kill times of a failed run (the seed is printed).
# Needs bash and python3.
set -u
if [ $# -ne 2 ]; then
    echo "usage: $0 GPUSIM_BINARY SOURCE_DIR" >&2
    exit 2
fi
GPUSIM=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$2" || exit 2
. tests/e2e_lib.sh

seed=${E2E_SEED:-$(($(date +%s) % 32768))}
RANDOM=$seed
echo "kill times from E2E_SEED=$seed"

# 3 machines x 2 sizes = 6 points, 4 variants: 24 runs, a second or so
# shellcheck disable=SC2054 # the commas are gpusim's value lists
S=(sweep workloads/transpose.json --set sm.count=1,2,4 --param n=128,256 --jobs 2)

"$GPUSIM" "${S[@]}" --out "$TMP/whole.jsonl" 2>"$TMP/whole.err"
rc=$?
[ "$rc" -eq 0 ] && ok || bad "the uninterrupted sweep exited $rc" "$(head -n 3 "$TMP/whole.err")"
t0=$(date +%s%N)
"$GPUSIM" "${S[@]}" >/dev/null 2>&1
ms=$((($(date +%s%N) - t0) / 1000000)) # a whole sweep's time
[ "$ms" -ge 50 ] || ms=50

same() { # NAME A B
    if cmp -s "$2" "$3"; then ok; else bad "$1: $2 and $3 differ" "$(diff "$2" "$3" | head -4)"; fi
}

# is_prefix FILE SHARD_I SHARD_N: FILE's whole lines are the first lines of
# the uninterrupted sweep's lines of that shard, each once; a last line
# without its newline (cut short by the kill) is allowed
is_prefix() {
    python3 - "$TMP/whole.jsonl" "$1" "$2" "$3" <<'EOF'
import json, sys
whole, path, i, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
want = [l for l in open(whole, 'rb').read().split(b'\n')[:-1] if json.loads(l)['point'] % n == i]
got = open(path, 'rb').read().split(b'\n')[:-1]
if len(got) > len(want) or got != want[:len(got)]:
    k = next((j for j in range(min(len(got), len(want))) if got[j] != want[j]), min(len(got), len(want)))
    print('line %d of %d is not line %d of the uninterrupted shard (%d lines)' % (k + 1, len(got), k + 1, len(want)))
    sys.exit(1)
EOF
}

# kill_until_done NAME OUT SHARD_I SHARD_N ARGS...: runs gpusim ARGS --out OUT,
# SIGKILLs it after a random time (at first within the first half of the
# shard's share of a whole sweep's time, then longer), checks the file, until a run finishes by
# itself (at most 30 tries); says how many kills landed
all_killed=0
kill_until_done() {
    local name=$1 out=$2 si=$3 sn=$4 tries=0 killed=0 pid status span=$((ms / (2 * $4) + 1))
    shift 4
    rm -f "$out"
    while [ $tries -lt 30 ]; do
        tries=$((tries + 1))
        "$GPUSIM" "$@" --out "$out" 2>>"$TMP/$name.err" &
        pid=$!
        local wait_ms=$((RANDOM % (span * (tries + 3) / 4))) # longer each try: it ends
        sleep "$((wait_ms / 1000)).$(printf %03d $((wait_ms % 1000)))"
        kill -KILL "$pid" 2>/dev/null && killed=$((killed + 1))
        { wait "$pid"; } 2>/dev/null # no "Killed" notice
        status=$?
        if [ -e "$out" ] && ! is_prefix "$out" "$si" "$sn" >"$TMP/prefix.txt"; then
            bad "$name: after kill $killed (${wait_ms} ms) $(cat "$TMP/prefix.txt")"
            return
        fi
        [ "$status" -eq 137 ] && continue
        [ "$status" -eq 0 ] && break
        bad "$name: a run exited $status" "$(tail -n 3 "$TMP/$name.err")"
        return
    done
    if [ "$status" -ne 0 ]; then # 30 kills in a row: finish it unhindered
        "$GPUSIM" "$@" --out "$out" 2>>"$TMP/$name.err"
        status=$?
    fi
    [ "$status" -eq 0 ] && ok || bad "$name: the last run exited $status" "$(tail -n 3 "$TMP/$name.err")"
    echo "$name: $killed kills in $tries runs, $(grep -c "dropped its last line" "$TMP/$name.err") torn last lines dropped"
    all_killed=$((all_killed + killed))
    [ "$killed" -gt 0 ] || echo "note: $name: no kill landed (a sweep of $ms ms), nothing interrupted"
}

kill_until_done killed "$TMP/killed.jsonl" 0 1 "${S[@]}"
same "a sweep killed and resumed equals the uninterrupted sweep" "$TMP/whole.jsonl" "$TMP/killed.jsonl"

# two shards, each killed and resumed, merged
kill_until_done shard0 "$TMP/part0.jsonl" 0 2 "${S[@]}" --shard 0/2
kill_until_done shard1 "$TMP/part1.jsonl" 1 2 "${S[@]}" --shard 1/2
"$GPUSIM" sweep --merge "$TMP/part1.jsonl" "$TMP/part0.jsonl" --out "$TMP/merged.jsonl" 2>"$TMP/merge.err"
rc=$?
[ "$rc" -eq 0 ] && ok || bad "merging the killed shards exited $rc" "$(head -n 3 "$TMP/merge.err")"
[ "$all_killed" -gt 0 ] && ok || bad "no kill landed: every sweep finished first (a sweep of $ms ms)"
same "killed shards, resumed and merged, equal the uninterrupted sweep" "$TMP/whole.jsonl" "$TMP/merged.jsonl"

e2e_finish
