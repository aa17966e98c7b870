-- wrk script for the sustained-ingest load test (Tests/TallySystemTests/Load):
--
--     wrk -t2 -c16 -d60s -s ingest.lua http://127.0.0.1:PORT -- KEY [KEY ...]
--
-- Each request POSTs /v1/events with 50 new events, each id unique in the run (the run's
-- start second, the thread, a counter), rotating over the ingest keys given. At the end it
-- prints one line: "result requests=N non2xx=N connect=N read=N write=N timeout=N".
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("thread", threads)
end

function init(args)
  keys = args
  run = os.time() % 4294967296
  sent = 0
end

function request()
  local now = os.date("!%Y-%m-%dT%H:%M:%SZ")
  local events = {}
  for i = 1, 50 do
    sent = sent + 1
    events[i] = string.format(
      '{"id":"%08x-%04x-4000-8000-%012x","name":"load_test","timestamp":"%s","user_id":"user-%d","properties":{"n":%d}}',
      run, thread, sent, now, sent % 5000, sent)
  end
  local body = string.format('{"sent_at":"%s","events":[%s]}', now, table.concat(events, ","))
  local key = keys[(sent / 50) % #keys + 1]
  return wrk.format("POST", "/v1/events", { ["X-App-Key"] = key, ["Content-Type"] = "application/json" }, body)
end

function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format("result requests=%d non2xx=%d connect=%d read=%d write=%d timeout=%d\n",
    summary.requests, errors.status, errors.connect, errors.read, errors.write, errors.timeout))
end
