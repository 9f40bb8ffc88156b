#!/usr/bin/env bash
# The idgen server's `GET /ids/{name}` under wrk, beside a bare Spring MVC endpoint that returns a counter in the same
# shape (dev.idgen.benchmarks.bare.BareCounterApplication), both on the server jar's classpath: the same JVM, Spring
# MVC, Tomcat and Actuator. The server runs at its defaults (Snowflake, worker 0; one client token, as every server
# needs one). Sides alternate A B B A per round after a warm-up; the ratio is the median of the per-round ratios.
#
#   idgen-benchmarks/wrk.sh                          # build, then measure (about 4 minutes)
#   ROUNDS=5 SECONDS_PER_RUN=20 SKIP_BUILD=1 idgen-benchmarks/wrk.sh
#
# Needs wrk (Debian's wrk package). Prints a Markdown table; exits non-zero when the ratio misses 0.9 or a response
# was not a 2xx.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS="${ROUNDS:-3}"
SECONDS_PER_RUN="${SECONDS_PER_RUN:-10}"
THREADS="${THREADS:-2}"
CONNECTIONS="${CONNECTIONS:-32}"
SERVER_JAR=idgen-server/target/idgen-server.jar
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 2; }

if [ -z "${SKIP_BUILD:-}" ]; then
  ./mvnw -B -q -pl idgen-server,idgen-benchmarks -am package -DskipTests >&2
fi

work="$(mktemp -d)"
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
token="wrk-$(date +%s%N)"
token_hash="sha256:$(printf %s "$token" | sha256sum | cut -d' ' -f1)"
idgen_port="$(free_port)"
bare_port="$(free_port)"

java -Xms512m -Xmx512m -jar "$SERVER_JAR" --server.address=127.0.0.1 --server.port="$idgen_port" \
  --idgen.server.grpc.enabled=false --idgen.server.clients.wrk.token-hash="$token_hash" \
  >"$work/idgen.log" 2>&1 &
pids+=($!)
java -Xms512m -Xmx512m -cp "$SERVER_JAR" -Dloader.path=idgen-benchmarks/target/classes \
  -Dloader.main=dev.idgen.benchmarks.bare.BareCounterApplication \
  org.springframework.boot.loader.launch.PropertiesLauncher --server.address=127.0.0.1 --server.port="$bare_port" \
  >"$work/bare.log" 2>&1 &
pids+=($!)

await() { # port
  for _ in $(seq 1 180); do
    curl -fs "http://127.0.0.1:$1/actuator/health" >/dev/null && return 0
    sleep 1
  done
  echo "nothing answered on port $1 within 180 s; logs in $work" >&2
  cat "$work"/*.log >&2
  return 1
}
await "$idgen_port"
await "$bare_port"
curl -fs -H "Authorization: Bearer $token" "http://127.0.0.1:$idgen_port/ids/orders" >/dev/null \
  || { echo "the idgen server refused GET /ids/orders" >&2; exit 1; }

cat >"$work/report.lua" <<'LUA'
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT %d %d %d %d %d %d %d\n", summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(99), latency:percentile(99.9), latency.max,
    e.connect + e.read + e.write + e.status + e.timeout))
end
LUA

run() { # side port seconds -> "rps p50us p99us p999us maxus errors"
  local url="http://127.0.0.1:$2/ids/orders"
  local out
  out="$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$3"s -s "$work/report.lua" \
    -H "Authorization: Bearer $token" "$url" | grep '^RESULT')"
  awk '{ printf "%.0f %d %d %d %d %d\n", $2 / ($3 / 1e6), $4, $5, $6, $7, $8 }' <<<"$out"
}

echo "warm-up: ${SECONDS_PER_RUN} s each" >&2
run bare "$bare_port" "$SECONDS_PER_RUN" >/dev/null
run idgen "$idgen_port" "$SECONDS_PER_RUN" >/dev/null

results="$work/results"
: >"$results"
for round in $(seq 1 "$ROUNDS"); do
  for side in bare idgen idgen bare; do
    port="$bare_port"; [ "$side" = idgen ] && port="$idgen_port"
    echo "round $round: $side" >&2
    echo "$round $side $(run "$side" "$port" "$SECONDS_PER_RUN")" >>"$results"
  done
done

python3 - "$results" "$ROUNDS" "$SECONDS_PER_RUN" "$THREADS" "$CONNECTIONS" <<'PY'
import statistics, sys
path, rounds, seconds, threads, connections = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
rows = [line.split() for line in open(path)]
side = {s: [r for r in rows if r[1] == s] for s in ("bare", "idgen")}
def per_round(s, k):
    return [sum(int(r[k]) for r in side[s] if int(r[0]) == n) / 2 for n in range(1, rounds + 1)]
ratios = sorted(i / b for i, b in zip(per_round("idgen", 2), per_round("bare", 2)))
median = statistics.median(ratios)
errors = sum(int(r[7]) for r in rows)
def fig(s):
    rps = statistics.mean(int(r[2]) for r in side[s])
    p50, p99, p999 = (statistics.median(int(r[k]) for r in side[s]) / 1000 for k in (3, 4, 5))
    worst = max(int(r[6]) for r in side[s]) / 1000
    return f"{rps:,.0f} req/s, p50 {p50:.2f} ms, p99 {p99:.2f} ms, p99.9 {p999:.2f} ms, max {worst:.1f} ms"
print(f"| comparison | wrk | idgen server | bare Spring MVC counter | ratio: median (min-max over {rounds} rounds) | target | holds |")
print("|---|---|---|---|---|---|---|")
holds = median >= 0.9 and errors == 0
print(f"| `GET /ids/orders` (count 1), server at defaults (Snowflake, one client token) / a bare endpoint returning"
      f" a counter, same jar and stack | {threads} threads, {connections} connections, {seconds} s runs"
      f" | {fig('idgen')} | {fig('bare')} | **{median:.3f}** ({ratios[0]:.2f}-{ratios[-1]:.2f}) | >= 0.9"
      f" | {'yes' if holds else 'NO'}; non-2xx or socket errors: {errors} |")
sys.exit(0 if holds else 1)
PY
