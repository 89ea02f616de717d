-- wrk script of `npm run bench -- flags`: POSTs the bodies of a file (one JSON a line) in turn to a path, and prints
-- the figures as one JSON line. Arguments (after `--`): the bodies file, the path.
local bodies = {}
local path = "/flags/?v=2"
local i = 0
local headers = { ["Content-Type"] = "application/json" }

function init(args)
  for line in io.lines(args[1]) do bodies[#bodies + 1] = line end
  path = args[2] or path
end

function request()
  i = i % #bodies + 1
  return wrk.format("POST", path, headers, bodies[i])
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK {"requests":%d,"duration_us":%d,"bytes":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
