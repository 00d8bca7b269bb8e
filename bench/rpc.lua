-- wrk script: with BODY set, POST it as CONTENT_TYPE (default text/plain, as
-- the browser client sends JSON-RPC); without, plain GETs. Prints latency
-- percentiles.
local body = os.getenv("BODY")
if body and body ~= "" then
  wrk.method = "POST"
  wrk.body = body
  wrk.headers["Content-Type"] = os.getenv("CONTENT_TYPE") or "text/plain"
end

function done(summary, latency, requests)
  io.write(string.format("requests/s %.0f  p50 %.3f ms  p90 %.3f ms  p99 %.3f ms  errors %d\n",
    summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.status + summary.errors.timeout))
end
