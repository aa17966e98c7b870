#!/usr/bin/env bash
# Measures this checkout's ingest on one core beside an earlier commit's, in one run, on
# SQLite: each round starts a collector of one build, then of the other, on core 0, and sends
# it the same load from this checkout's IngestOnOneCore on core 1 (5 rounds of 20,000 events,
# 16 connections, every batch durable before its answer). Alternating spreads the machine's
# drift over both. It prints each run's median events/s and the collector's CPU time, then
# both builds' medians and their ratio.
#
#     Benchmarks/ingest-versus.sh 8dee771          # issue 30's baseline: before segments
#     RUNS=20 Benchmarks/ingest-versus.sh 8dee771
#
# This checkout's collector configures two segment properties (one of events, one of users),
# which the load carries; a commit from before segments has none to configure.
set -euo pipefail
cd "$(dirname "$0")"
base=${1:?usage: ingest-versus.sh COMMIT}
runs=${RUNS:-12}

scratch=$(mktemp -d)
cleanup() {
    [ -n "${collector:-}" ] && kill -KILL "$collector" 2>/dev/null || true
    git worktree remove --force "$scratch/base" 2>/dev/null || true
    rm -rf "$scratch"
}
trap cleanup EXIT

swift build -c release --product IngestOnOneCore
cp .build/release/IngestOnOneCore "$scratch/head"
git worktree add --detach "$scratch/base" "$base" >/dev/null
(cd "$scratch/base/Benchmarks" && swift build -c release --product IngestOnOneCore)
cp "$scratch/base/Benchmarks/.build/release/IngestOnOneCore" "$scratch/base-tool"

# The cores' prefixes: taskset execs the command, so a background job's PID is the collector's.
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then
    collector_core=(taskset -c 0)
    load_core=(taskset -c 1)
else
    collector_core=()
    load_core=()
fi
ticks=$(getconf CLK_TCK)
cpu() { # PID: the process's user and system time so far, in milliseconds
    awk -v ticks="$ticks" '{ print ($14 + $15) * 1000 / ticks }' "/proc/$1/stat"
}

for run in $(seq 1 "$runs"); do
    for build in base-tool head; do
        TMPDIR=$scratch "${collector_core[@]}" "$scratch/$build" serve >"$scratch/collector" &
        collector=$!
        until [ -s "$scratch/collector" ]; do sleep 0.2; done
        before=$(cpu "$collector")
        rate=$("${load_core[@]}" "$scratch/head" load $(cat "$scratch/collector") | sed -n 's/^median: \([0-9]*\) events\/s$/\1/p')
        after=$(cpu "$collector")
        kill -KILL "$collector"
        wait "$collector" 2>/dev/null || true
        collector=
        rm -rf "$scratch/collector" "$scratch"/tally-test-*
        echo "$build $rate $(awk -v a="$after" -v b="$before" 'BEGIN { print a - b }')" | tee -a "$scratch/results"
    done
done

awk '
    { rates[$1] = rates[$1] " " $2; cpus[$1] = cpus[$1] " " $3 }
    function median(list,    values, count, i, j, swap) {
        count = split(list, values, " ")
        for (i = 1; i <= count; i++) for (j = i + 1; j <= count; j++) if (values[j] < values[i]) { swap = values[i]; values[i] = values[j]; values[j] = swap }
        return count % 2 ? values[(count + 1) / 2] : (values[count / 2] + values[count / 2 + 1]) / 2
    }
    END {
        base = median(rates["base-tool"]); head = median(rates["head"])
        printf "base  median %d events/s, collector CPU %d ms per 100,000 events\n", base, median(cpus["base-tool"])
        printf "head  median %d events/s, collector CPU %d ms per 100,000 events\n", head, median(cpus["head"])
        printf "head / base: %.3f\n", head / base
    }' "$scratch/results"
