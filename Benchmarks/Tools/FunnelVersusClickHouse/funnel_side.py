"""The ClickHouse and DuckDB sides of FunnelVersusClickHouse: one funnel over the same events.

Loads a CSV written by `tally export --format csv` into chDB (ClickHouse in process, a Memory
table) and DuckDB (in memory, 2 threads) once, then times the same funnel at each window in
each and prints one JSON object: the engines' versions, and per window the median seconds of 5
runs after a warm-up and the users reaching each step.

- ClickHouse: `windowFunnel(window, 'strict_increase')`, the first condition limited to the
  range, over the events of the steps' names from the range's start to its end plus the window.
- DuckDB: the exact definition, greedily: from every first-step event in the range, the
  earliest next step strictly later (an ASOF join), kept while within the window of the start.

Also counts a user's events of the steps' names that share a millisecond: there
`strict_increase` may count fewer steps than exist (a@0, a@3, b@3, c@4 gives 1, not 3).

    python3 funnel_side.py EVENTS.csv FROM_MS TO_MS WINDOW_MS[,WINDOW_MS ...] STEP STEP [STEP ...]
"""
import json
import statistics
import sys
import time

import chdb
import duckdb
from chdb import session

path, start, end, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[5:]
windows = [int(window) for window in sys.argv[4].split(",")]
names = ", ".join(f"'{name}'" for name in steps)


def timed(query):
    query()
    times = []
    for _ in range(5):
        begin = time.perf_counter()
        result = query()
        times.append(time.perf_counter() - begin)
    return statistics.median(times), result


ch = session.Session()
ch.query("CREATE DATABASE IF NOT EXISTS bench")
ch.query("CREATE TABLE bench.event (user_id String, ts UInt64, name LowCardinality(String)) ENGINE = Memory")
ch.query(f"""
    INSERT INTO bench.event
    SELECT user_id, toUInt64(toUnixTimestamp64Milli(parseDateTime64BestEffort(timestamp, 3))), name
    FROM file('{path}', 'CSVWithNames', 'app String, id String, name String, timestamp String, device_timestamp String,
        user_id String, session_id String, app_version String, platform String, properties String')
""")
conditions = ", ".join([f"name = '{steps[0]}' AND ts >= {start} AND ts < {end}"] + [f"name = '{name}'" for name in steps[1:]])


def clickhouse_query(window):
    return f"""
    SELECT level, count() FROM (
        SELECT user_id, windowFunnel({window}, 'strict_increase')(ts, {conditions}) AS level
        FROM bench.event WHERE ts >= {start} AND ts < {end + window} AND name IN ({names}) GROUP BY user_id
    ) GROUP BY level FORMAT JSONCompact
"""


def clickhouse(window):
    rows = json.loads(str(ch.query(clickhouse_query(window))))["data"]
    levels = {int(level): int(count) for level, count in rows}
    return [sum(count for level, count in levels.items() if level >= k) for k in range(1, len(steps) + 1)]


db = duckdb.connect()
db.execute("SET threads = 2")
db.execute(f"CREATE TABLE event AS SELECT name, epoch_ms(timestamp) AS ts, user_id FROM read_csv('{path}', header = true, auto_detect = true)")


def duckdb_query(window):
    chains = [f"c1 AS (SELECT user_id, ts AS first, ts AS last FROM e WHERE name = '{steps[0]}' AND ts < {end})"]
    for index, name in enumerate(steps[1:], start=2):
        chains.append(f"""c{index} AS (
            SELECT c.user_id, c.first, n.ts AS last FROM c{index - 1} c
            ASOF JOIN (SELECT user_id, ts FROM e WHERE name = '{name}') n ON c.user_id = n.user_id AND n.ts > c.last
            WHERE n.ts <= c.first + {window})""")
    return f"""
    WITH e AS (SELECT user_id, ts, name FROM event WHERE ts >= {start} AND ts < {end + window} AND name IN ({names})),
    {", ".join(chains)}
    SELECT {", ".join(f"(SELECT count(DISTINCT user_id) FROM c{k})" for k in range(1, len(steps) + 1))}
"""


def duck(window):
    return list(db.execute(duckdb_query(window)).fetchone())


ties = db.execute(f"""
    SELECT count(*) FROM (SELECT user_id, ts FROM event WHERE ts >= {start} AND ts < {end + max(windows)} AND name IN ({names})
    GROUP BY user_id, ts HAVING count(*) > 1)
""").fetchone()[0]
results = {}
for window in windows:
    clickhouse_seconds, clickhouse_users = timed(lambda: clickhouse(window))
    duck_seconds, duck_users = timed(lambda: duck(window))
    results[str(window)] = {
        "clickhouse_p50": clickhouse_seconds,
        "clickhouse_users": clickhouse_users,
        "duckdb_p50": duck_seconds,
        "duckdb_users": duck_users,
    }
print(json.dumps({
    "chdb_version": chdb.__version__,
    "clickhouse_version": str(ch.query("SELECT version()", "CSV")).strip().strip('"'),
    "duckdb_version": duckdb.__version__,
    "windows": results,
    "shared_milliseconds": ties,
}))
