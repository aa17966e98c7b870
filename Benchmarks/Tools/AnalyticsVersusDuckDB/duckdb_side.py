"""The DuckDB side of AnalyticsVersusDuckDB: the same questions over the same events.

Loads a CSV written by `tally export --format csv` into an in-memory DuckDB table (2 threads),
then times, for each day given, the day's whole metric set (DAU, WAU, MAU, new users, events
per name, per-user average and maximum per name, versions by each user's last event, screens),
and the daily retention matrix of the days given. Prints one JSON object of seconds.

    python3 duckdb_side.py EVENTS.csv TIME_ZONE DAY [DAY ...]
"""
import json
import statistics
import sys
import time
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import duckdb

path, zone, days = sys.argv[1], ZoneInfo(sys.argv[2]), [date.fromisoformat(d) for d in sys.argv[3:]]
db = duckdb.connect()
db.execute("SET threads = 2")
db.execute(f"""
    CREATE TABLE event AS
    SELECT name, epoch_ms(timestamp) AS ts, user_id, app_version, properties
    FROM read_csv('{path}', header = true, auto_detect = true)
""")


def start_ms(day):
    """The first millisecond of the local day."""
    return int(datetime(day.year, day.month, day.day, tzinfo=zone).timestamp() * 1000)


def users(first, last):
    return db.execute("SELECT count(DISTINCT user_id) FROM event WHERE ts >= ? AND ts < ?", [first, last]).fetchone()[0]


def day_metrics(day):
    first, end = start_ms(day), start_ms(day + timedelta(days=1))
    window = [first, end]
    return {
        "dau": users(first, end),
        "wau": users(start_ms(day - timedelta(days=6)), end),
        "mau": users(start_ms(day - timedelta(days=29)), end),
        "new_users": db.execute(
            "SELECT count(*) FROM (SELECT min(ts) AS f FROM event GROUP BY user_id) WHERE f >= ? AND f < ?", window
        ).fetchone()[0],
        "events": db.execute("SELECT name, count(*) FROM event WHERE ts >= ? AND ts < ? GROUP BY name", window).fetchall(),
        "per_user": db.execute(
            """SELECT name, avg(c), max(c) FROM (
                   SELECT name, user_id, count(*) AS c FROM event WHERE ts >= ? AND ts < ? GROUP BY name, user_id
               ) GROUP BY name""",
            window,
        ).fetchall(),
        "versions": db.execute(
            """SELECT v, count(*) FROM (
                   SELECT arg_max(app_version, (ts, app_version)) AS v FROM event WHERE ts >= ? AND ts < ? GROUP BY user_id
               ) GROUP BY v""",
            window,
        ).fetchall(),
        "screens": db.execute(
            """SELECT json_extract_string(properties, '$.screen') AS s, count(*) FROM event
               WHERE ts >= ? AND ts < ? AND name = 'screen_view' AND s IS NOT NULL GROUP BY s""",
            window,
        ).fetchall(),
    }


def retention(first_day, last_day):
    """Cohorts by local day of the first event ever; users back on each later day."""
    first, end = start_ms(first_day), start_ms(last_day + timedelta(days=1))
    return db.execute(
        f"""
        WITH local AS (
            SELECT user_id, CAST(timezone('{zone.key}', to_timestamp(ts / 1000.0)) AS DATE) AS day
            FROM event WHERE ts >= ? AND ts < ?
        ),
        firsts AS (
            SELECT user_id, CAST(timezone('{zone.key}', to_timestamp(min(ts) / 1000.0)) AS DATE) AS cohort
            FROM event GROUP BY user_id HAVING min(ts) >= ? AND min(ts) < ?
        ),
        active AS (SELECT DISTINCT user_id, day FROM local)
        SELECT cohort, datediff('day', cohort, day) AS later, count(*)
        FROM firsts JOIN active USING (user_id) GROUP BY cohort, later ORDER BY cohort, later
        """,
        [first, end, first, end],
    ).fetchall()


def seconds(body):
    start = time.perf_counter()
    result = body()
    return time.perf_counter() - start, result


day_times = [seconds(lambda: day_metrics(day))[0] for day in days]
retention_times = [seconds(lambda: retention(days[0], days[-1]))[0] for _ in range(5)]
_, matrix = seconds(lambda: retention(days[0], days[-1]))
sizes = {}
for cohort, later, count in matrix:
    if later == 0:
        sizes[str(cohort)] = count
print(json.dumps({
    "version": duckdb.__version__,
    "day_metrics_p50": statistics.median(day_times),
    "retention_p50": statistics.median(retention_times),
    "cohort_sizes": sizes,
    "returning_total": sum(count for _, later, count in matrix if later > 0),
}))
