-- wrk script: POST one JSON-RPC request (BODY env var) and print latency percentiles.
wrk.method = "POST"
wrk.body = os.getenv("BODY")
wrk.headers["Content-Type"] = "text/plain"

function done(summary, latency, requests)
  io.write(string.format("requests/s %.0f  p50 %.3f ms  p90 %.3f ms  p99 %.3f ms  errors %d\n",
    summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.status + summary.errors.timeout))
end
