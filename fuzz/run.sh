#!/usr/bin/env bash
# Runs the fuzz targets one after another, each for a bounded time, and says how many inputs
# each ran and whether any crashed (CONTRIBUTING.md, "Fuzzing").
#
#   fuzz/run.sh [-t SECONDS] [TARGET...]
#
# SECONDS per target (default 600, or $FUZZ_SECONDS); TARGETs default to all of them. Needs a
# nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`). Each target starts from its
# seeds (fuzz/corpus/TARGET, committed) and what earlier runs found (fuzz/corpus-live/TARGET,
# not committed, where new inputs go); crashes land in fuzz/artifacts/TARGET, logs in
# fuzz/logs/TARGET.log. Runs at the lowest priority (nice 19, or $FUZZ_NICE), one process,
# under AddressSanitizer (cargo-fuzz's default; $FUZZ_SANITIZER=none runs faster: the lab has
# no unsafe code, only some of its dependencies do).
# Exits 1 if any target crashed (a panic, a timeout or running out of memory), 2 on bad use.
set -euo pipefail

fuzz_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
all_targets=(lab_csv plain mangohud presentmon detect generator_spec options recording)

usage() {
    echo "usage: $0 [-t SECONDS] [TARGET...]   (targets: ${all_targets[*]})" >&2
    exit 2
}

seconds="${FUZZ_SECONDS:-600}"
while getopts "t:h" option; do
    case "$option" in
        t) seconds="$OPTARG" ;;
        *) usage ;;
    esac
done
shift $((OPTIND - 1))
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || {
    echo "seconds must be a whole number above 0, not \"$seconds\"" >&2
    usage
}
targets=("$@")
((${#targets[@]})) || targets=("${all_targets[@]}")
for target in "${targets[@]}"; do
    [[ " ${all_targets[*]} " == *" $target "* ]] || {
        echo "unknown target \"$target\"" >&2
        usage
    }
done

rustup toolchain list | grep -q '^nightly' || {
    echo "fuzzing needs a nightly toolchain: rustup toolchain install nightly" >&2
    exit 2
}
cargo +nightly fuzz --version >/dev/null 2>&1 || {
    echo "fuzzing needs cargo-fuzz: cargo install cargo-fuzz" >&2
    exit 2
}

# Longest input, memory and time for one input, and the dictionary, per target. Trace
# inputs stay far below the 64 KiB line limit (whose refusal the unit tests cover): short
# inputs run many times faster and reach the same parsing code.
settings() {
    case "$1" in
        lab_csv | plain | mangohud | presentmon | detect | recording) echo "16384 trace.dict" ;;
        generator_spec) echo "128 generator.dict" ;;
        options) echo "512 options.dict" ;;
    esac
}
rss_limit_mb=2048
timeout_s=10

cd "$fuzz_dir/.."
echo "== building the fuzz targets"
sanitizer="${FUZZ_SANITIZER:-address}"
nice -n "${FUZZ_NICE:-19}" cargo +nightly fuzz build --sanitizer "$sanitizer" >/dev/null
mkdir -p "$fuzz_dir/logs"

# A field of libFuzzer's status line `last`: `field cov` is the coverage.
field() { sed -n "s/.* $1: \([^ ]*\).*/\1/p" <<<"$last"; }

summary=()
crashed=()
for target in "${targets[@]}"; do
    read -r max_len dict < <(settings "$target")
    live="$fuzz_dir/corpus-live/$target"
    seeds="$fuzz_dir/corpus/$target"
    log="$fuzz_dir/logs/$target.log"
    mkdir -p "$live" "$seeds" "$fuzz_dir/artifacts/$target"
    echo "== $target: $seconds s (log: ${log#"$fuzz_dir/.."/})"
    status=0
    started=$SECONDS
    nice -n "${FUZZ_NICE:-19}" cargo +nightly fuzz run --sanitizer "$sanitizer" "$target" "$live" "$seeds" -- \
        -max_total_time="$seconds" -max_len="$max_len" -rss_limit_mb="$rss_limit_mb" \
        -timeout="$timeout_s" -dict="$fuzz_dir/dict/$dict" -print_final_stats=1 \
        >"$log" 2>&1 || status=$?
    took=$((SECONDS - started))
    # libFuzzer's last status line (`#N DONE cov: ... ft: ... corp: ...`) and final stats.
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
    artifacts=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tr '\n' ' ')
    if ((status != 0)) || [[ -n "$artifacts" ]]; then
        crashed+=("$target")
        outcome="CRASH (exit $status) ${artifacts:-see the log}"
    else
        outcome="no crash"
    fi
    summary+=("$(printf '%-15s %6s %12s %8s %8s %16s  %s' "$target" "$took" "${executions:-?}" \
        "$(field cov)" "$(field ft)" "$(field corp)" "$outcome")")
    echo "${summary[-1]}"
done

echo
echo "== summary: $seconds s of fuzzing per target (wall s: with the start)"
printf '%-15s %6s %12s %8s %8s %16s  %s\n' target "wall s" executions cov ft corpus outcome
printf '%s\n' "${summary[@]}"
if ((${#crashed[@]})); then
    echo "crashed: ${crashed[*]}; minimise with: cargo +nightly fuzz tmin TARGET ARTIFACT" >&2
    exit 1
fi
