#!/usr/bin/env bash
# Reruns the figures of docs/benchmarks.md on this machine, in release mode, and prints them:
#
#   1. ingest: events/s of one collector process pinned to one core (its load generator on
#      another, 16 connections; 64 as well on PostgreSQL), on SQLite and on PostgreSQL, every
#      batch durable before its answer;
#   2. metrics: the day metric set (p50 and p95), the retention matrix and tiles, at 1M
#      (DAYS=6) and 10M (DAYS=60) events, on SQLite and on PostgreSQL, each beside DuckDB
#      (PyPI's `duckdb`, installed if missing) over the same events exported as CSV;
#   3. funnels: a 4-step funnel over 30 days of the 10M-event fixture, on SQLite, beside
#      ClickHouse's windowFunnel (PyPI's `chdb`, installed if missing) and DuckDB.
#
#     Benchmarks/published.sh            # all of it (the 10M fixtures take a while to fill)
#     DAYS_LIST=6 Benchmarks/published.sh    # 1M events only
#
# PostgreSQL is a throwaway server started by .ci/postgres, unless TALLY_BENCH_POSTGRES_URL
# names one whose user may create databases. The fixtures are kept between runs (see
# Support/PipelineWorkload/Fixtures.swift), on that server and in $TMPDIR.
set -euo pipefail
cd "$(dirname "$0")"

scratch=$(mktemp -d)
cleanup() {
    [ -n "${collector:-}" ] && kill -KILL "$collector" 2>/dev/null || true
    [ -n "${postgres_folder:-}" ] && ../.ci/postgres stop "$postgres_folder" || true
    rm -rf "$scratch"
}
trap cleanup EXIT

if [ -z "${TALLY_BENCH_POSTGRES_URL:-}" ]; then
    TALLY_BENCH_POSTGRES_URL=$(../.ci/postgres 2>"$scratch/postgres-log")
    postgres_folder=$(sed -n "s/^PostgreSQL in //p" "$scratch/postgres-log")
fi
export TALLY_BENCH_POSTGRES_URL
python3 -c "import duckdb" 2>/dev/null || python3 -m pip install --quiet duckdb
python3 -c "import chdb" 2>/dev/null || python3 -m pip install --quiet chdb

swift build -c release --product IngestOnOneCore
swift build -c release --product AnalyticsVersusDuckDB
swift build -c release --product FunnelVersusClickHouse
cpus=$(nproc)
pin() { # CORE COMMAND...: runs COMMAND on one core when the machine has two or more
    local core=$1
    shift
    if [ "$cpus" -ge 2 ] && command -v taskset >/dev/null; then taskset -c "$core" "$@"; else "$@"; fi
}

echo "== ingest: one collector process on one core, its load generator on another"
for run in sqlite:16 postgresql:16 postgresql:64; do
    database=${run%:*}
    connections=${run#*:}
    TMPDIR=$scratch pin 0 .build/release/IngestOnOneCore serve "$database" >"$scratch/collector-$database" &
    collector=$!
    until [ -s "$scratch/collector-$database" ]; do
        kill -0 "$collector" || { echo "the collector on $database did not start" >&2; exit 1; }
        sleep 0.2
    done
    echo "-- $database, $connections connections"
    # shellcheck disable=SC2046 # the URL and the keys are separate arguments
    TALLY_BENCH_CONNECTIONS=$connections pin 1 .build/release/IngestOnOneCore load $(cat "$scratch/collector-$database")
    kill -KILL "$collector" # it keeps serving until killed; its database is scratch
    wait "$collector" 2>/dev/null || true
    collector=""
done

for days in ${DAYS_LIST:-6 60}; do
    echo "== metrics: $days days"
    env -u TALLY_BENCH_POSTGRES_URL DAYS="$days" .build/release/AnalyticsVersusDuckDB
    DAYS="$days" .build/release/AnalyticsVersusDuckDB
done

echo "== funnels: 4 steps over 30 days of 10M events, in process and through GET /v1/funnels"
env -u TALLY_BENCH_POSTGRES_URL .build/release/FunnelVersusClickHouse
