#!/usr/bin/env bash
# Compares `bench --json` of two builds of timestep-lab, case by case: every lab strategy and
# every engine preset, on each shipped trace (assets/traces/) and on generated traces, under
# the cpu, fifo, mailbox and vrr displays and the none, snap and average filters, plus a few
# cases that exercise the guards, the load model, inputs and other integrators.
#
#   scripts/compare-bench.sh OLD_BIN NEW_BIN
#
# Exits 0 when every case is identical, 1 (naming each case that differed, with the first
# differing lines) otherwise, 2 on bad usage. A case compares the exit status, the JSON on
# standard output and the notes and errors on standard error. No field is left out of the
# comparison: bench's JSON holds no measured wall-clock time (`wall_time_s` is the trace's
# own length), and the script first checks that OLD_BIN gives the same bytes twice.
set -euo pipefail

if [[ $# -ne 2 ]]; then
    echo "usage: $0 OLD_BIN NEW_BIN" >&2
    exit 2
fi
old=$(realpath "$1")
new=$(realpath "$2")
for bin in "$old" "$new"; do
    if [[ ! -x $bin ]]; then
        echo "$0: $bin is not an executable" >&2
        exit 2
    fi
done

# Traces are named relative to the repository root, so the JSON's `source` is the same for
# both builds.
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The engine presets, as the old build lists them; the new one must list the same.
preset_ids() {
    "$1" bench --preset '?' 2>&1 | sed -n 's/.*(allowed: \(.*\)).*/\1/p' | tr -d ' ' | tr ',' ' '
}
read -r -a presets <<<"$(preset_ids "$old")"
if [[ ${#presets[@]} -eq 0 ]]; then
    echo "$0: could not read the engine presets from $old" >&2
    exit 2
fi
if [[ "$(preset_ids "$new")" != "${presets[*]}" ]]; then
    echo "DIFFERENT: the engine presets: old lists '${presets[*]}', new '$(preset_ids "$new")'"
    exit 1
fi
every_row=(--json --strategy all)
for preset in "${presets[@]}"; do
    every_row+=(--preset "$preset")
done

cases=()
add() { cases+=("$*"); }

displays=(cpu fifo:60 mailbox:60 vrr:48-144)
filters=(none snap average:4)
sources=()
for trace in assets/traces/*; do
    case $trace in
    *.md) ;;
    # A recorded session replays as recorded, with its own settings: once so, and once
    # as a plain trace through the bench's model.
    *lab-session*)
        add --trace "$trace"
        sources+=("--trace $trace --as-trace")
        ;;
    *) sources+=("--trace $trace") ;;
    esac
done
for spec in jitter:144:2:24 hitch:60:100:1 steady:60 steady:144 ramp:30:144; do
    sources+=("--generate $spec")
done
for source in "${sources[@]}"; do
    for display in "${displays[@]}"; do
        for filter in "${filters[@]}"; do
            add "$source" --display "$display" --filter "$filter"
        done
    done
done
# A PresentMon capture with its own display times.
add --trace assets/traces/presentmon2-display.csv --display trace
# The guards, the load model, the rate, inputs, integrators and the GPU's cost.
add --generate hitch:60:300:1 --max-steps 3 --hz 60
add --generate hitch:60:300:1 --max-frame-time 0 --step-cost 25
add --generate jitter:60:4:7 --hz 64 --max-frame-time 100 --max-steps 8
add --generate jitter:144:2:24 --integrator rk4 --spring-hz 4 --damping 0.1
add --generate jitter:144:2:24 --integrator explicit-euler --render-cost 3
add --generate steady:60 --input every:0.5 --input-policy first-step
add --trace assets/traces/hitches30.txt --input every:0.25:40 --display fifo:60:3
add --generate jitter:144:2:24 --display fifo:60 --gpu-cost 12
add --generate jitter:144:2:24 --display vrr:48-144 --gpu-cost 5 --filter snap:0.2

# run BIN OUT CASE...: the case's status, JSON and notes, in OUT.{rc,json,err}.
run() {
    local bin=$1 out=$2
    shift 2
    local - rc=0
    set -f
    # shellcheck disable=SC2068 # a case is its words
    "$bin" bench "${every_row[@]}" $@ >"$out.json" 2>"$out.err" || rc=$?
    echo "$rc" >"$out.rc"
}

# Every value of a JSON report on its own line, after its path: `results.hermite.judder_ms`.
flat() {
    jq -c '.results |= (map({key: .strategy, value: .}) | from_entries)
        | tostream | select(length == 2) | [(.[0] | map(tostring) | join(".")), .[1]]' "$1" \
        2>/dev/null || cat "$1"
}

same() {
    cmp -s "$1.rc" "$2.rc" && cmp -s "$1.json" "$2.json" && cmp -s "$1.err" "$2.err"
}

# OLD_BIN against itself: a case that is not reproducible cannot be compared.
run "$old" "$work/a" "${cases[0]}"
run "$old" "$work/b" "${cases[0]}"
if ! same "$work/a" "$work/b"; then
    echo "$0: $old gives different output twice for: ${cases[0]}" >&2
    exit 2
fi

failed=0
refused=0
for i in "${!cases[@]}"; do
    run "$old" "$work/old" "${cases[i]}"
    run "$new" "$work/new" "${cases[i]}"
    if [[ $(cat "$work/old.rc") != 0 ]]; then
        refused=$((refused + 1))
        echo "note: the old build refuses: bench ${cases[i]}: $(tail -n 1 "$work/old.err")"
    fi
    if same "$work/old" "$work/new"; then
        continue
    fi
    failed=$((failed + 1))
    echo "DIFFERENT: bench ${cases[i]}"
    if ! cmp -s "$work/old.rc" "$work/new.rc"; then
        echo "  exit status: old $(cat "$work/old.rc"), new $(cat "$work/new.rc")"
    fi
    if ! cmp -s "$work/old.json" "$work/new.json"; then
        # One value per line with its path (a result named by its strategy), so the first
        # differing lines say what differs where.
        diff <(flat "$work/old.json") <(flat "$work/new.json") | head -n 12 | sed 's/^/  /' || true
    fi
    if ! cmp -s "$work/old.err" "$work/new.err"; then
        diff "$work/old.err" "$work/new.err" | head -n 6 | sed 's/^/  stderr /' || true
    fi
done

total=${#cases[@]}
if [[ $failed -gt 0 ]]; then
    echo "$failed of $total cases differ"
    exit 1
fi
echo "all $total cases identical ($refused refused by both; ${#presets[@]} presets and every lab strategy in each)"
