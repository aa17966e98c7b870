"""The DuckDB side of PathsVersusDuckDB: the same paths over the same events.

Loads a CSV written by `tally export --format csv` into DuckDB (in memory, 2 threads), then
times the paths query, window functions over sessions, and prints one JSON object: DuckDB's
version, the median seconds of 5 runs after a warm-up, the sessions with the start, and per
level every step's sessions (not cut to ten).

A session is a user's events with one non-empty `session_id`; its steps in the range are
numbered in time order, ties by the step's text (`row_number`); each session's first start
is found, and level k is the step numbered k after it (before it), `$end` (`$start`) if none.

    python3 paths_side.py EVENTS.csv FROM_MS TO_MS START KIND DIRECTION DEPTH
"""
import json
import statistics
import sys
import time

import duckdb

path, start, end, first, kind, direction, depth = sys.argv[1:8]
start, end, depth = int(start), int(end), int(depth)
terminal = "$end" if direction == "after" else "$start"
offset = "+" if direction == "after" else "-"

db = duckdb.connect()
db.execute("SET threads = 2")
db.execute(f"""
    CREATE TABLE event AS SELECT epoch_ms(timestamp) AS ts, user_id, session_id, name,
        CASE WHEN name = 'screen_view' THEN json_extract_string(properties, '$.screen') END AS screen
    FROM read_csv('{path}', header = true, auto_detect = true, all_varchar = false,
        types = {{'session_id': 'VARCHAR', 'properties': 'VARCHAR'}})
""")
step = "name" if kind == "event" else "screen"
query = f"""
    WITH e AS (
        SELECT user_id, session_id, ts, {step} AS step FROM event
        WHERE ts >= {start} AND ts < {end} AND session_id IS NOT NULL AND session_id <> '' AND {step} IS NOT NULL
    ),
    n AS (SELECT user_id, session_id, step, row_number() OVER (PARTITION BY user_id, session_id ORDER BY ts, step) AS i FROM e),
    s AS (SELECT user_id, session_id, min(i) AS i FROM n WHERE step = $start GROUP BY user_id, session_id),
    l AS (
        SELECT k, coalesce(n.step, '{terminal}') AS step FROM s CROSS JOIN range(1, {depth + 1}) r(k)
        LEFT JOIN n ON n.user_id = s.user_id AND n.session_id = s.session_id AND n.i = s.i {offset} k
    )
    SELECT k, step, count(*) FROM l GROUP BY k, step
"""


def paths():
    levels = [{} for _ in range(depth)]
    for k, name, count in db.execute(query, {"start": first}).fetchall():
        levels[k - 1][name] = count
    return levels


def timed(run):
    run()
    times = []
    for _ in range(5):
        begin = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - begin)
    return statistics.median(times), result


seconds, levels = timed(paths)
print(json.dumps({
    "duckdb_version": duckdb.__version__,
    "duckdb_p50": seconds,
    "sessions": sum(levels[0].values()),
    "levels": levels,
}))
