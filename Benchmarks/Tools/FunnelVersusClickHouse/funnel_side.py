"""The ClickHouse and DuckDB sides of FunnelVersusClickHouse: one funnel over the same events.

Loads a CSV written by `tally export --format csv` into chDB (ClickHouse in process, a Memory
table) and DuckDB (in memory, 2 threads), then times the same funnel in each and prints one
JSON object: per engine its version, median seconds of 5 runs after a warm-up, and the users
reaching each step.

- ClickHouse: `windowFunnel(window, 'strict_increase')`, the first condition limited to the
  range, over the events of the steps' names from the range's start to its end plus the window.
- DuckDB: the exact definition, greedily: from every first-step event in the range, the
  earliest next step strictly later (an ASOF join), kept while within the window of the start.

Also counts a user's events of the steps' names that share a millisecond: there
`strict_increase` may count fewer steps than exist (a@0, a@3, b@3, c@4 gives 1, not 3).

    python3 funnel_side.py EVENTS.csv FROM_MS TO_MS WINDOW_MS STEP STEP [STEP ...]
"""
import json
import statistics
import sys
import time

import chdb
import duckdb
from chdb import session

path, start, end, window, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:]
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
clickhouse_query = f"""
    SELECT level, count() FROM (
        SELECT user_id, windowFunnel({window}, 'strict_increase')(ts, {conditions}) AS level
        FROM bench.event WHERE ts >= {start} AND ts < {end + window} AND name IN ({names}) GROUP BY user_id
    ) GROUP BY level FORMAT JSONCompact
"""


def clickhouse():
    rows = json.loads(str(ch.query(clickhouse_query)))["data"]
    levels = {int(level): int(count) for level, count in rows}
    return [sum(count for level, count in levels.items() if level >= k) for k in range(1, len(steps) + 1)]


db = duckdb.connect()
db.execute("SET threads = 2")
db.execute(f"CREATE TABLE event AS SELECT name, epoch_ms(timestamp) AS ts, user_id FROM read_csv('{path}', header = true, auto_detect = true)")
chains = [f"c1 AS (SELECT user_id, ts AS first, ts AS last FROM e WHERE name = '{steps[0]}' AND ts < {end})"]
for index, name in enumerate(steps[1:], start=2):
    chains.append(f"""c{index} AS (
        SELECT c.user_id, c.first, n.ts AS last FROM c{index - 1} c
        ASOF JOIN (SELECT user_id, ts FROM e WHERE name = '{name}') n ON c.user_id = n.user_id AND n.ts > c.last
        WHERE n.ts <= c.first + {window})""")
duckdb_query = f"""
    WITH e AS (SELECT user_id, ts, name FROM event WHERE ts >= {start} AND ts < {end + window} AND name IN ({names})),
    {", ".join(chains)}
    SELECT {", ".join(f"(SELECT count(DISTINCT user_id) FROM c{k})" for k in range(1, len(steps) + 1))}
"""


def duck():
    return list(db.execute(duckdb_query).fetchone())


ties = db.execute(f"""
    SELECT count(*) FROM (SELECT user_id, ts FROM event WHERE ts >= {start} AND ts < {end + window} AND name IN ({names})
    GROUP BY user_id, ts HAVING count(*) > 1)
""").fetchone()[0]
clickhouse_seconds, clickhouse_users = timed(clickhouse)
duck_seconds, duck_users = timed(duck)
print(json.dumps({
    "chdb_version": chdb.__version__,
    "clickhouse_version": str(ch.query("SELECT version()", "CSV")).strip().strip('"'),
    "duckdb_version": duckdb.__version__,
    "clickhouse_p50": clickhouse_seconds,
    "clickhouse_users": clickhouse_users,
    "duckdb_p50": duck_seconds,
    "duckdb_users": duck_users,
    "shared_milliseconds": ties,
}))
