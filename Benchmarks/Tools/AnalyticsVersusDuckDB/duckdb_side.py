"""The DuckDB side of AnalyticsVersusDuckDB: the same questions over the same events.

Loads a CSV written by `tally export --format csv` into an in-memory DuckDB table (2 threads),
then times, for each day given, the day's whole metric set (DAU, WAU, MAU, new users, events
per name, per-user average and maximum per name, versions by each user's last event, screens),
and the daily retention matrix of the days given. Prints one JSON object of seconds, with each
day's DAU, WAU, MAU and new users for the caller to compare.

With WHERE set to an SQL condition on the columns (for example `app_version = '2.0.0'`), the
day's metric set counts only the events it matches, and users through them (new users: those
whose first event ever is on the day and who have a matching event on it); the retention
matrix is then skipped.

    python3 duckdb_side.py EVENTS.csv TIME_ZONE DAY [DAY ...]
    WHERE="platform = 'Android'" python3 duckdb_side.py EVENTS.csv TIME_ZONE DAY [DAY ...]
"""
import json
import os
import statistics
import sys
import time
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import duckdb

path, zone, days = sys.argv[1], ZoneInfo(sys.argv[2]), [date.fromisoformat(d) for d in sys.argv[3:]]
where = os.environ.get("WHERE")
matching = f" AND ({where})" if where else ""
db = duckdb.connect()
db.execute("SET threads = 2")
db.execute(f"""
    CREATE TABLE event AS
    SELECT name, epoch_ms(timestamp) AS ts, user_id, app_version, platform, properties
    FROM read_csv('{path}', header = true, auto_detect = true)
""")


def start_ms(day):
    """The first millisecond of the local day."""
    return int(datetime(day.year, day.month, day.day, tzinfo=zone).timestamp() * 1000)


def users(first, last):
    return db.execute(f"SELECT count(DISTINCT user_id) FROM event WHERE ts >= ? AND ts < ?{matching}", [first, last]).fetchone()[0]


def day_metrics(day):
    first, end = start_ms(day), start_ms(day + timedelta(days=1))
    window = [first, end]
    return {
        "dau": users(first, end),
        "wau": users(start_ms(day - timedelta(days=6)), end),
        "mau": users(start_ms(day - timedelta(days=29)), end),
        "new_users": db.execute(
            f"""SELECT count(*) FROM (SELECT user_id, min(ts) AS f FROM event GROUP BY user_id) WHERE f >= ? AND f < ?
                AND user_id IN (SELECT user_id FROM event WHERE ts >= ? AND ts < ?{matching})""",
            window + window,
        ).fetchone()[0]
        if where
        else db.execute(
            "SELECT count(*) FROM (SELECT min(ts) AS f FROM event GROUP BY user_id) WHERE f >= ? AND f < ?", window
        ).fetchone()[0],
        "events": db.execute(f"SELECT name, count(*) FROM event WHERE ts >= ? AND ts < ?{matching} GROUP BY name", window).fetchall(),
        "per_user": db.execute(
            f"""SELECT name, avg(c), max(c) FROM (
                   SELECT name, user_id, count(*) AS c FROM event WHERE ts >= ? AND ts < ?{matching} GROUP BY name, user_id
               ) GROUP BY name""",
            window,
        ).fetchall(),
        "versions": db.execute(
            f"""SELECT v, count(*) FROM (
                   SELECT arg_max(app_version, (ts, app_version)) AS v FROM event WHERE ts >= ? AND ts < ?{matching} GROUP BY user_id
               ) GROUP BY v""",
            window,
        ).fetchall(),
        "screens": db.execute(
            f"""SELECT json_extract_string(properties, '$.screen') AS s, count(*) FROM event
               WHERE ts >= ? AND ts < ? AND name = 'screen_view' AND s IS NOT NULL{matching} GROUP BY s""",
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


day_times, day_values = [], {}
for day in days:
    elapsed, metrics = seconds(lambda: day_metrics(day))
    day_times.append(elapsed)
    day_values[str(day)] = [metrics[key] for key in ("dau", "wau", "mau", "new_users")]
if where:
    print(json.dumps({"version": duckdb.__version__, "day_metrics_p50": statistics.median(day_times), "days": day_values}))
    sys.exit(0)
retention_times = [seconds(lambda: retention(days[0], days[-1]))[0] for _ in range(5)]
_, matrix = seconds(lambda: retention(days[0], days[-1]))
sizes = {}
for cohort, later, count in matrix:
    if later == 0:
        sizes[str(cohort)] = count
print(json.dumps({
    "version": duckdb.__version__,
    "day_metrics_p50": statistics.median(day_times),
    "days": day_values,
    "retention_p50": statistics.median(retention_times),
    "cohort_sizes": sizes,
    "returning_total": sum(count for _, later, count in matrix if later > 0),
}))
