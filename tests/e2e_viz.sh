#!/usr/bin/env bash
# tests/e2e_viz.sh -- end-to-end tests of gpusim-viz without a display: the
# headless snapshot is a valid PNG of the asked size; snapshots of two states
# differ in the panel they should (the shared-memory bank panel of transpose
# tiled vs tiled_padded at their first ld.shared; the SM panel's lane cells
# of divergence divergent vs uniform) and not in one they should not (the GPU
# panel, same blocks on the same SMs); the same snapshot twice is the same
# file; bad input exits 2. Small --param sizes keep it under a few seconds.
# usage: e2e_viz.sh GPUSIM_VIZ_BINARY SOURCE_DIR
# Prints one line per failure and a final "N passed, M failed"; exits 1 on
# any failure. Needs bash, od, cmp.
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 GPUSIM_VIZ_BINARY SOURCE_DIR" >&2
    exit 2
fi
VIZ=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$2" || exit 2
. tests/e2e_lib.sh # the working directory is now the source tree
unset DISPLAY WAYLAND_DISPLAY # headless means headless

E2E_PROGRAM=$VIZ
viz() { e2e_run "$@"; } # viz ARGS...: gpusim-viz, as the checks below run it

# png_check NAME FILE WIDTH HEIGHT: PNG signature, IHDR first with that size,
# 8-bit RGB, and an IEND chunk at the end.
png_check() {
    local name=$1 file=$2 w=$3 h=$4
    if [ ! -s "$file" ]; then
        bad "$name: $file missing or empty"
        return
    fi
    local head want
    head=$(od -An -v -tx1 -N 26 "$file" | tr -d ' \n')
    want=$(printf '89504e470d0a1a0a0000000d49484452%08x%08x0802' "$w" "$h")
    if [ "$head" = "$want" ]; then ok; else bad "$name: PNG header" "got  $head" "want $want"; fi
    local tail
    tail=$(tail -c 12 "$file" | od -An -v -tx1 | tr -d ' \n')
    if [ "$tail" = "0000000049454e44ae426082" ]; then ok; else bad "$name: PNG does not end with IEND" "$tail"; fi
}

same() { if cmp -s "$2" "$3"; then ok; else bad "$1: $2 and $3 differ"; fi; }
differ() { if cmp -s "$2" "$3"; then bad "$1: $2 and $3 are identical"; else ok; fi; }

T="workloads/transpose.json --param n=64"
D="workloads/divergence.json --param n=1024 --param iters=20"

# ---- bad input
expect_rc "no file" 2
expect_rc "unknown option" 2 $T --frobnicate
expect_rc "unknown variant" 2 $T --variant nope --snapshot "$TMP/x.png"
expect_rc "unknown panel" 2 $T --snapshot "$TMP/x.png" --panel banks
expect_rc "--panel without --snapshot" 2 $T --panel sm
expect_rc "bad --size" 2 $T --snapshot "$TMP/x.png" --size 10x10
expect_rc "unknown --at event" 2 $T --snapshot "$TMP/x.png" --at lunch
expect_rc "--sm past the machine" 2 $T --snapshot "$TMP/x.png" --sm 5000
expect_rc "--warp past the SM's slots" 2 $T --snapshot "$TMP/x.png" --warp 5000
expect_err "--warp past the SM's slots" "^gpusim-viz: error: --warp 5000: SM 0 has warp slots 0\.\.63"
expect_rc "--warp past 32 bits" 2 $T --snapshot "$TMP/x.png" --warp 99999999999
expect_err "--warp past 32 bits" "^gpusim-viz: error: --warp 99999999999: beyond any machine's warp slots"
expect_rc "--size past 32 bits" 2 $T --snapshot "$TMP/x.png" --size 99999999999x200
expect_rc "--size without a height" 2 $T --snapshot "$TMP/x.png" --size 400x
if [ -w /dev/full ]; then
    expect_rc "a snapshot that cannot be written" 2 $T --snapshot /dev/full
    expect_err "a snapshot that cannot be written" "^gpusim-viz: error: cannot write /dev/full: No space left on device"
fi
# no --snapshot and no display: a clear error, not an invisible window
if command -v timeout >/dev/null; then
    timeout 30 "$VIZ" $T >"$OUT" 2>"$ERR"
    rc=$?
    if [ "$rc" -eq 2 ]; then ok; else bad "window without a display: exit $rc, want 2" "$(head -n 3 "$ERR")"; fi
    expect_err "window without a display" "no display"
fi
expect_rc "--help" 0 --help
expect_out "--help" "usage: gpusim-viz"

# ---- a variant of several launches: one launch at a time, and which one
R="workloads/reduction_two_pass.json --param n=65536 --param blocks=64 --variant two_pass"
expect_rc "--launch 2" 0 $R --launch 2 --snapshot "$TMP/l2.png"
expect_out "--launch 2 says which" "^snapshot: .* reduction_two_pass/two_pass launch=2/2:reduce_final cycle="
expect_out "--launch 2 is the one-block launch" "^gpu: wave=1 waves=1 resident_blocks=1 "
expect_rc "the first launch by default" 0 $R --snapshot "$TMP/l1.png"
expect_out "the first launch by default" "^snapshot: .* reduction_two_pass/two_pass launch=1/2:reduce_partials cycle="
expect_rc "--launch past the variant's" 2 $R --launch 3 --snapshot "$TMP/l3.png"
expect_err "--launch past the variant's" "variant 'two_pass' has 2 launches"

# ---- a whole-view snapshot: size, PNG structure, what it says it shows
expect_rc "snapshot" 0 $T --variant tiled --snapshot "$TMP/full.png" --at-cycle 400
png_check "snapshot 1600x960" "$TMP/full.png" 1600 960
expect_out "snapshot line" "^snapshot: .*full.png 1600x960 transpose/tiled cycle=400 .* panel=all"
expect_rc "snapshot --size" 0 $T --variant tiled --snapshot "$TMP/small.png" --size 1024x640
png_check "snapshot 1024x640" "$TMP/small.png" 1024 640
expect_rc "snapshot again" 0 $T --variant tiled --snapshot "$TMP/full2.png" --at-cycle 400
same "snapshots are deterministic" "$TMP/full.png" "$TMP/full2.png"

# ---- bank panel: tiled (32-way conflict) vs tiled_padded (none)
expect_rc "tiled bank panel" 0 $T --variant tiled --snapshot "$TMP/bank_tiled.png" --panel shared --at shared-load
expect_out "tiled: a 32-way conflict is shown" "^shared: .*op=ld\.shared.* wavefronts=32 ideal=1 max_bank_words=32"
expect_rc "padded bank panel" 0 $T --variant tiled_padded --snapshot "$TMP/bank_padded.png" --panel shared --at shared-load
expect_out "padded: one wavefront is shown" "^shared: .*op=ld\.shared.* wavefronts=1 ideal=1 max_bank_words=1"
differ "bank panel tiled vs tiled_padded" "$TMP/bank_tiled.png" "$TMP/bank_padded.png"
expect_rc "tiled bank panel, whole view" 0 $T --variant tiled --snapshot "$TMP/t_all.png" --at shared-load
expect_rc "padded bank panel, whole view" 0 $T --variant tiled_padded --snapshot "$TMP/p_all.png" --at shared-load
differ "whole view tiled vs tiled_padded" "$TMP/t_all.png" "$TMP/p_all.png"
# the panel follows smem.banks: the column read of tiled is 16-way on 64 banks
expect_out "tiled: 32 banks by default" "^shared: .* banks=32$"
expect_rc "tiled bank panel, 64 banks" 0 $T --variant tiled --set smem.banks=64 --snapshot "$TMP/bank_64.png" --panel shared --at shared-load
expect_out "64 banks: a 16-way conflict is shown" "^shared: .*op=ld\.shared.* wavefronts=16 ideal=1 max_bank_words=16 banks=64$"
differ "bank panel 32 vs 64 banks" "$TMP/bank_tiled.png" "$TMP/bank_64.png"
expect_rc "padded bank panel, 16 banks" 0 $T --variant tiled_padded --set smem.banks=16 --snapshot "$TMP/bank_16.png" --panel shared --at shared-load
expect_out "16 banks: two half-warp passes" "^shared: .*op=ld\.shared.* wavefronts=2 ideal=2 max_bank_words=2 banks=16$"

# ---- lane cells: divergent (half the lanes) vs uniform (all 32)
for v in divergent uniform; do
    for p in sm gpu; do
        expect_rc "$v $p panel" 0 $D --variant $v --snapshot "$TMP/${v}_$p.png" --panel $p --at-cycle 150
        cp "$OUT" "$TMP/${v}_$p.txt"
    done
done
cp "$TMP/divergent_sm.txt" "$OUT"
expect_out "divergent: half-warp masks" "^warp [0-9]+: .* active=(55555555|aaaaaaaa)"
cp "$TMP/uniform_sm.txt" "$OUT"
expect_out "uniform: full masks" "^warp [0-9]+: .* active=ffffffff"
expect_no_out "uniform: no partial masks" "active=(55555555|aaaaaaaa)"
differ "SM panel divergent vs uniform" "$TMP/divergent_sm.png" "$TMP/uniform_sm.png"
same "GPU panel divergent vs uniform (same blocks resident)" "$TMP/divergent_gpu.png" "$TMP/uniform_gpu.png"

# ---- keys, as the window has them (--keys presses them before the snapshot)
# v keeps the same relative point of the run: 400/1856 of tiled is ~21 %
viz $T --variant tiled --snapshot "$TMP/k.png" --at-cycle 400 --keys v
if awk '/^snapshot:/ { for (i = 1; i <= NF; i++) { if ($i ~ /^cycle=/) c = substr($i, 7); if ($i ~ /^end=/) e = substr($i, 5) }
        f = c / e; exit !(e > 0 && f > 0.2 && f < 0.23 && $0 ~ /transpose\/tiled_padded /) }' "$OUT"; then ok
else bad "v: not the same relative point (400/1856 of tiled)" "$(head -n 1 "$OUT")"; fi
# d with no divergence says so; with some, goes there
expect_rc "d, uniform" 0 $D --variant uniform --snapshot "$TMP/k.png" --keys d
expect_out "d, uniform: says there is none" "^message: no divergent branch on SM 0 in this launch"
expect_rc "d, divergent" 0 $D --variant divergent --snapshot "$TMP/k.png" --at-cycle 0 --keys d
expect_no_out "d, divergent: no message" "^message:"
expect_out "d, divergent: moved to the branch" "^snapshot: .* cycle=[1-9]"
# m goes to the first shared access (the tile's fill store); f then m to the first load
expect_rc "m" 0 $T --variant tiled --snapshot "$TMP/k.png" --at-cycle 0 --keys m
expect_out "m: the fill store first" "^shared: .*op=st\.shared"
expect_rc "f m" 0 $T --variant tiled --snapshot "$TMP/k.png" --at-cycle 0 --keys fm
expect_out "f m: the first shared load" "^shared: .*op=ld\.shared.* wavefronts=32"
expect_rc "f f g" 0 $T --variant tiled --snapshot "$TMP/k.png" --at-cycle 0 --keys ffg
expect_out "f f g: the first global store" "^global: .*op=st\.global"
expect_rc "--keys with a non-key" 2 $T --snapshot "$TMP/k.png" --keys "v d"

# ---- exited warps are drawn as exited (a dim bar), not with their last full mask
expect_rc "exited warps" 0 $T --variant tiled --snapshot "$TMP/k.png" --at-cycle 1750 --panel sm
expect_out "exited warps: drawn as exited" "^warp [0-9]+: .*state=exited lanes=exited$"
expect_no_out "exited warps: no mask" "state=exited .*active="

# ---- a headless snapshot prints no interactive hints; readable at 1024x768
expect_rc "texts" 0 $T --variant tiled --snapshot "$TMP/k.png" --at shared-load --size 1024x768 --print-text
expect_out "texts: the drawn text is printed" "^text: shared: .*wavefronts"
expect_no_out "texts: no key or click hints" "^text: .*(click|space: play|h: help|paused)"
if awk '/^sizes:/ { split($2, a, /[=x]/); split($3, b, /[=.]+/); exit !(a[2] >= 6 && a[3] >= 5 && b[2] >= 13) }' "$OUT"
then ok; else bad "1024x768: lane cells under 6x5 px or text under 13 px" "$(grep '^sizes:' "$OUT")"; fi
# the sizes of a classroom projector, with an SM full of warps (2 blocks of
# 32): every warp's label drawn, lane cells at least 6 px wide, the census of
# this cycle whole, and warps not started yet told from masked-off lanes
for size in 1024x768 1280x800 1366x768; do
    expect_rc "projector $size" 0 workloads/transpose.json --variant tiled --param n=512 --snapshot "$TMP/p.png" \
        --size "$size" --at-cycle 300 --print-text
    labels=$(grep -cE '^text: sm: w[0-9]+$' "$OUT")
    if [ "$labels" = 64 ]; then ok; else bad "$size: $labels of 64 warp labels drawn"; fi
    if awk '/^sizes:/ { split($2, a, /[=x]/); exit !(a[2] >= 6) }' "$OUT"; then ok
    else bad "$size: lane cells under 6 px wide" "$(grep '^sizes:' "$OUT")"; fi
    census=$(grep -E '^text: sm: [0-9]+ [a-z_]+$' "$OUT" | sed 's/^text: sm: //' | sort)
    states=$(grep -E '^warp [0-9]+:' "$OUT" | sed -E 's/.*state=([a-z_]+).*/\1/' | sort | uniq -c | awk '{ print $1 " " $2 }' | sort)
    if [ -n "$census" ] && [ "$census" = "$states" ]; then ok
    else bad "$size: the census drawn is not the warps' states" "$census" "--" "$states"; fi
    expect_out "$size: warps not started yet are told apart" "^warp [0-9]+: block=[0-9]+ state=[a-z_]+ lanes=not_started$"
done
# a window opens to fit the display (a 1600x960 one went off a 1280x800
# projector); SDL's dummy display is 1024x768
# (a window that opens stays until killed: exit 124 from timeout; without the
# dummy driver the viewer says there is no display and exits 2)
SDL_VIDEODRIVER=dummy timeout 3 "$VIZ" $T --variant tiled --size 800x600 >/dev/null 2>"$TMP/win0.err"
if [ $? = 124 ]; then
    SDL_VIDEODRIVER=dummy timeout 3 "$VIZ" $T --variant tiled >/dev/null 2>"$TMP/win.err"
    grep -q '^gpusim-viz: a 1003x691 window, to fit the 1024x768 display (--size WxH to choose)$' "$TMP/win.err" && ok ||
        bad "the window does not fit the display" "$(head -2 "$TMP/win.err")"
    [ ! -s "$TMP/win0.err" ] && ok || bad "--size: the window is as asked, no note" "$(head -2 "$TMP/win0.err")"
else
    echo "e2e_viz: SDL's dummy video driver does not open a window here: the window's fit is not checked"
fi
# panels with nothing to show give their room: vecadd has no shared access
expect_rc "vecadd, no shared access" 0 workloads/vecadd.json --param n=65536 --snapshot "$TMP/va.png" --print-text
expect_no_out "vecadd: no shared panel drawn" "^text: shared:"
expect_out "vecadd: the global panel is" "^text: global: Global memory"
expect_rc "vecadd, --panel shared still crops" 0 workloads/vecadd.json --param n=65536 --snapshot "$TMP/vs.png" --panel shared
expect_out "vecadd, --panel shared" "^shared: none"

# ---- the source overlay (key s): the followed warp's instruction in the
# listing, with the counters gpusim run --source prints under it
after_current() { awk 'found { print; exit } /^source current:/ { found = 1 }' "$OUT"; }
for v in tiled:32.0 tiled_padded:1.0; do
    expect_rc "s, ${v%:*}" 0 $T --variant ${v%:*} --warp 0 --snapshot "$TMP/s.png" --at shared-load --keys s
    expect_out "s, ${v%:*}: the warp's instruction" "^source current: +[0-9]+ +@%p0 ld\.shared\.f32"
    c=$(after_current)
    case $c in "source counters:"*"wf/req ${v#*:}"*) ok ;; *) bad "s, ${v%:*}: its counters" "$c" ;; esac
done
expect_out "s: the mini-ISA comment stays" "^source current: .*// tile\[tx\]\[ty\]"
expect_rc "s, PTX" 0 tests/source/transpose.json --param n=64 --variant tiled --warp 0 --snapshot "$TMP/s.png" --at shared-load --keys s
expect_out "s, PTX: the CUDA line" "^source note: transpose\.cu:44 .*tile\[threadIdx\.x\]\[threadIdx\.y\]"
expect_out "s, PTX: the PTX instruction" "^source current: .*ld\.shared\.f32"
expect_rc "no s" 0 $T --variant tiled --snapshot "$TMP/s.png" --at shared-load
expect_no_out "no s: no source overlay" "^source"

# ---- atomics are shown as atomics, not as loads
H=workloads/examples/histogram.json
expect_rc "global atomic" 0 $H --variant global_atomics --snapshot "$TMP/a.png" --at global-atomic --print-text
expect_out "global atomic: its kind" "^global: .*op=atom\.global\.add\.u32 kind=atomic "
expect_out "global atomic: said in the panel" "^text: global: sector fetched \(atomic\)"
expect_rc "shared atomic" 0 $H --variant shared_bins --snapshot "$TMP/a.png" --at shared-atomic --print-text
expect_out "shared atomic: its kind" "^shared: .*op=atom\.shared\.add\.u32 kind=atomic "
expect_out "shared atomic: lanes and words" "^text: shared: atomic: 32 lanes, [0-9]+ words"
expect_rc "f f f m: the next shared atomic" 0 $H --variant shared_bins --snapshot "$TMP/a.png" --at-cycle 0 --keys fffm
expect_out "f f f m" "^shared: .*kind=atomic "
expect_rc "f m skips atomics" 0 $H --variant shared_bins --snapshot "$TMP/a.png" --at-cycle 0 --keys fm
expect_no_out "f m skips atomics" "^shared: .*kind=atomic "

# ---- panel crops have the layout's sizes and are valid PNGs
viz $T --variant tiled --snapshot "$TMP/sm.png" --panel sm --at-cycle 100
size=$(sed -n 's/^snapshot: [^ ]* \([0-9]*\)x\([0-9]*\) .*/\1 \2/p' "$OUT")
if [ -n "$size" ]; then png_check "SM panel crop" "$TMP/sm.png" $size; else bad "SM panel crop: no size printed"; fi

e2e_finish
