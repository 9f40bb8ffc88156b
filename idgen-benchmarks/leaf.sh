#!/usr/bin/env bash
# The idgen server beside Meituan Leaf's leaf-server (1.0.1), both serving segments from MariaDB, one ID per request
# under wrk: idgen's `GET /ids/orders` (one client token) against Leaf's `GET /api/segment/get/orders`. Both run at
# their defaults with the same heap; Leaf's jar is built from Leaf's public source, outside this repository, and is
# only run. Sides alternate Leaf idgen idgen Leaf per round after a warm-up of each; the ratio is the median of the
# per-round ratios (idgen / Leaf req/s). Then idgen's batches, which Leaf 1.0.1 has no form of: IDs per second at
# count=1000 over HTTP (wrk, `GET /ids/orders?count=1000`) and over gRPC (NextIds, dev.idgen.benchmarks.grpc).
#
#   ./mvnw -B -q -pl idgen-server,idgen-benchmarks -am package -DskipTests      # first, without the lock
#   LEAF_JAR=/path/to/leaf.jar idgen-benchmarks/leaf.sh   # about 8 minutes
#   LEAF_JAR=... ROUNDS=3 SECONDS_PER_RUN=10 STRESS=1 idgen-benchmarks/leaf.sh   # STRESS=1: stress-ng --cpu 2 beside
#
# Needs wrk, the mysql (or mariadb) client, python3, and MariaDB on DB_HOST:DB_PORT (127.0.0.1:3306, root, no password)
# where it creates the databases leaf_bench (Leaf's leaf_alloc with a row for orders, step 1000 as idgen's first step;
# Leaf's README's sample row has 2000) and idgen_bench (the idgen server creates its own table). Prints Markdown
# tables; exits non-zero when a response was not a 2xx, a socket failed (wrk's 2 s timeout included) or a gRPC call
# failed.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS="${ROUNDS:-5}"
SECONDS_PER_RUN="${SECONDS_PER_RUN:-15}"
WARMUP_SECONDS="${WARMUP_SECONDS:-$SECONDS_PER_RUN}"
THREADS="${THREADS:-2}"
CONNECTIONS="${CONNECTIONS:-32}"
BATCH_COUNT="${BATCH_COUNT:-1000}"   # at most the server's idgen.server.max-count (1000)
BATCH_RUNS="${BATCH_RUNS:-3}"
BATCH_SECONDS="${BATCH_SECONDS:-10}"
GRPC_CALLS="${GRPC_CALLS:-$CONNECTIONS}"   # concurrent NextIds calls, one thread each, over one channel
HEAP="${HEAP:--Xms512m -Xmx512m}"          # both servers alike
DB_HOST="${DB_HOST:-127.0.0.1}"
DB_PORT="${DB_PORT:-3306}"
DB_USER="${DB_USER:-root}"
DB_PASSWORD="${DB_PASSWORD:-}"
LEAF_DB="${LEAF_DB:-leaf_bench}"
IDGEN_DB="${IDGEN_DB:-idgen_bench}"
SERVER_JAR=idgen-server/target/idgen-server.jar
DRIVER_CLASSES=idgen-benchmarks/target/classes

if [ -z "${LEAF_JAR:-}" ] || [ ! -f "$LEAF_JAR" ]; then
  cat >&2 <<EOF
LEAF_JAR must name Leaf's leaf-server jar${LEAF_JAR:+ ($LEAF_JAR is not a file)}. Build it from Leaf's public
source, outside this repository, unchanged, on JDK 17 with Maven 3.8: version 1.0.1, the last commit of Leaf's
master (2020-04-12), which these figures were taken with:
  git clone https://github.com/Meituan-Dianping/Leaf.git /tmp/leaf-src
  cd /tmp/leaf-src && git checkout 86a6441d263497b9f9ee321de13422b9c63f0c06
  mvn -q -DskipTests package
then: LEAF_JAR=/tmp/leaf-src/leaf-server/target/leaf.jar $0
EOF
  exit 2
fi
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 2; }
mysql_cmd="$(command -v mysql || command -v mariadb || true)"
[ -n "$mysql_cmd" ] || { echo "the mysql client is missing: apt-get install mariadb-client" >&2; exit 2; }
if [ ! -f "$SERVER_JAR" ] || [ ! -f "$DRIVER_CLASSES/dev/idgen/benchmarks/grpc/GrpcBatchLoad.class" ]; then
  echo "build first: ./mvnw -B -q -pl idgen-server,idgen-benchmarks -am package -DskipTests" >&2
  exit 2
fi
if [ -n "${STRESS:-}" ]; then
  command -v stress-ng >/dev/null || { echo "STRESS=1 needs stress-ng: apt-get install stress-ng" >&2; exit 2; }
fi

work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

sql() { MYSQL_PWD="$DB_PASSWORD" "$mysql_cmd" -h"$DB_HOST" -P"$DB_PORT" -u"$DB_USER" -e "$1"; }
# Leaf's scripts/leaf_alloc.sql, and a row like its README's for the tag both sides serve, with idgen's first step.
sql "CREATE DATABASE IF NOT EXISTS \`$LEAF_DB\`;
  CREATE TABLE IF NOT EXISTS \`$LEAF_DB\`.leaf_alloc (
    biz_tag varchar(128) NOT NULL DEFAULT '',
    max_id bigint(20) NOT NULL DEFAULT '1',
    step int(11) NOT NULL,
    description varchar(256) DEFAULT NULL,
    update_time timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
    PRIMARY KEY (biz_tag)) ENGINE=InnoDB;
  INSERT IGNORE INTO \`$LEAF_DB\`.leaf_alloc (biz_tag, max_id, step, description)
    VALUES ('orders', 1, 1000, 'idgen-benchmarks/leaf.sh');
  CREATE DATABASE IF NOT EXISTS \`$IDGEN_DB\`;"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
token="wrk-$(date +%s%N)"
token_hash="sha256:$(printf %s "$token" | sha256sum | cut -d' ' -f1)"
idgen_port="$(free_port)"
management_port="$(free_port)"
grpc_port="$(free_port)"
leaf_port="$(free_port)"

# Leaf reads leaf.properties from its classpath only: PropertiesLauncher puts this directory ahead of the jar's own.
mkdir "$work/leaf-conf"
cat >"$work/leaf-conf/leaf.properties" <<EOF
leaf.name=idgen-benchmarks
leaf.segment.enable=true
leaf.jdbc.url=jdbc:mysql://$DB_HOST:$DB_PORT/$LEAF_DB?useUnicode=true&characterEncoding=utf8&useSSL=false
leaf.jdbc.username=$DB_USER
leaf.jdbc.password=$DB_PASSWORD
leaf.snowflake.enable=false
EOF

# shellcheck disable=SC2086 # HEAP is a list of flags
java $HEAP -jar "$SERVER_JAR" --server.address=127.0.0.1 --server.port="$idgen_port" \
  --management.server.port="$management_port" --idgen.server.grpc.port="$grpc_port" --idgen.strategy=segment \
  --spring.datasource.url="jdbc:mariadb://$DB_HOST:$DB_PORT/$IDGEN_DB" --spring.datasource.username="$DB_USER" \
  --spring.datasource.password="$DB_PASSWORD" \
  --idgen.server.clients.wrk.token-hash="$token_hash" --idgen.server.clients.wrk.names=orders \
  >"$work/idgen.log" 2>&1 &
pids+=($!)
# Spring Boot 1.5 on JDK 17 needs java.lang opened (its CGLIB proxies define classes through reflection).
# shellcheck disable=SC2086
java $HEAP --add-opens java.base/java.lang=ALL-UNNAMED -Dloader.path="$work/leaf-conf" -cp "$LEAF_JAR" \
  org.springframework.boot.loader.PropertiesLauncher --server.address=127.0.0.1 --server.port="$leaf_port" \
  >"$work/leaf.log" 2>&1 &
pids+=($!)

await() { # name url [curl args]
  local name="$1" url="$2"
  shift 2
  for _ in $(seq 1 180); do
    curl -fs "$@" "$url" >/dev/null && return 0
    sleep 1
  done
  echo "$name did not answer $url within 180 s; its log:" >&2
  cat "$work/$name.log" >&2
  return 1
}
await idgen "http://127.0.0.1:$management_port/actuator/health"
await idgen "http://127.0.0.1:$idgen_port/ids/orders" -H "Authorization: Bearer $token"
await leaf "http://127.0.0.1:$leaf_port/api/segment/get/orders"
batch_ids="$(curl -fs -H "Authorization: Bearer $token" "http://127.0.0.1:$idgen_port/ids/orders?count=$BATCH_COUNT" \
  | python3 -c 'import json, sys; print(len(json.load(sys.stdin)))')"
[ "$batch_ids" = "$BATCH_COUNT" ] \
  || { echo "GET /ids/orders?count=$BATCH_COUNT gave $batch_ids IDs" >&2; exit 1; }

if [ -n "${STRESS:-}" ]; then
  # The timeout only bounds a stress-ng this script could not kill.
  stress-ng --cpu 2 --timeout 3h >/dev/null 2>&1 &
  pids+=($!)
fi
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
started="$(date -u '+%Y-%m-%d %H:%M')"
echo "load average before: $load_before${STRESS:+ (stress-ng --cpu 2 running)}" >&2

cat >"$work/p999.lua" <<'LUA'
done = function(summary, latency, requests)
  io.write(string.format("P999 %d\n", latency:percentile(99.9)))
end
LUA

# wrk's text: Requests/sec, the --latency distribution (50%, 99%), non-2xx/3xx and socket errors; p99.9 from the lua.
run() { # url seconds -> "rps p50us p99us p999us non2xx socket_errors"
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$2"s --latency -s "$work/p999.lua" -H "Authorization: Bearer $token" "$1" \
    | awk '
      function us(v) {
        if (v ~ /us$/) return v + 0
        if (v ~ /ms$/) return (v + 0) * 1000
        if (v ~ /m$/) return (v + 0) * 60e6
        return (v + 0) * 1e6
      }
      $1 == "50%" { p50 = us($2) }
      $1 == "99%" { p99 = us($2) }
      $1 == "P999" { p999 = $2 }
      $1 == "Requests/sec:" { rps = $2 }
      /^  Non-2xx or 3xx responses:/ { status += $NF }
      /^  Socket errors:/ { gsub(",", ""); socket += $4 + $6 + $8 + $10 }
      END { printf "%.0f %.0f %.0f %.0f %d %d\n", rps, p50, p99, p999, status, socket }'
}
idgen_url="http://127.0.0.1:$idgen_port/ids/orders"
leaf_url="http://127.0.0.1:$leaf_port/api/segment/get/orders"

echo "warm-up: $WARMUP_SECONDS s each" >&2
run "$leaf_url" "$WARMUP_SECONDS" >/dev/null
run "$idgen_url" "$WARMUP_SECONDS" >/dev/null

results="$work/results"
: >"$results"
for round in $(seq 1 "$ROUNDS"); do
  for side in leaf idgen idgen leaf; do
    url="$leaf_url"; [ "$side" = idgen ] && url="$idgen_url"
    echo "round $round: $side" >&2
    echo "$round $side $(run "$url" "$SECONDS_PER_RUN")" >>"$results"
  done
done

echo "batches: HTTP count=$BATCH_COUNT" >&2
batch_url="$idgen_url?count=$BATCH_COUNT"
run "$batch_url" "$BATCH_SECONDS" >/dev/null
for n in $(seq 1 "$BATCH_RUNS"); do
  echo "$n http $(run "$batch_url" "$BATCH_SECONDS")" >>"$work/batches"
done
echo "batches: gRPC NextIds count=$BATCH_COUNT, $GRPC_CALLS calls at once" >&2
# shellcheck disable=SC2086
java $HEAP -cp "$SERVER_JAR" -Dloader.path="$DRIVER_CLASSES" -Dloader.main=dev.idgen.benchmarks.grpc.GrpcBatchLoad \
  org.springframework.boot.loader.launch.PropertiesLauncher 127.0.0.1 "$grpc_port" "$token" orders "$BATCH_COUNT" \
  "$GRPC_CALLS" "$BATCH_SECONDS" "$BATCH_SECONDS" "$BATCH_RUNS" \
  | awk '$1 == "RESULT" { print NR " grpc " $2 " " $3 " " $4 " " $5 " " $6 " 0" }' >>"$work/batches" \
  || echo "the gRPC load driver failed" >&2

load_after="$(cut -d' ' -f1-3 /proc/loadavg)"
echo "load average after: $load_after" >&2

status=0
python3 - "$results" "$work/batches" "$ROUNDS" "$SECONDS_PER_RUN" "$THREADS" "$CONNECTIONS" "$BATCH_COUNT" \
  "$BATCH_SECONDS" "$GRPC_CALLS" "$started" "$load_before" "$load_after" "${STRESS:+yes}" <<'PY' || status=$?
import statistics, sys
(path, batches, rounds, seconds, threads, connections, count, batch_seconds, grpc_calls, started, before, after,
 stress) = sys.argv[1:14]
rounds, count = int(rounds), int(count)
rows = [line.split() for line in open(path)]
side = {s: [r for r in rows if r[1] == s] for s in ("idgen", "leaf")}
med = statistics.median
def per_round(s):
    return [statistics.mean(int(r[2]) for r in side[s] if int(r[0]) == n) for n in range(1, rounds + 1)]
ratios = [i / l for i, l in zip(per_round("idgen"), per_round("leaf"))]
errors = sum(int(r[6]) + int(r[7]) for r in rows)
def failed(rs):
    return f"{sum(int(r[6]) for r in rs)} / {sum(int(r[7]) for r in rs)}"
def fig(s, k):
    return med(int(r[k]) for r in side[s])
ms = lambda us: f"{us / 1000:.2f} ms"
print(f"Started {started} UTC; wrk -t{threads} -c{connections} -d{seconds}s --latency, {rounds} rounds of Leaf idgen"
      f" idgen Leaf; load average before {before}, after {after}"
      f"{'; stress-ng --cpu 2 running throughout' if stress else ''}.")
print()
print("| one ID per request | req/s (median) | p50 | p99 | p99.9 | non-2xx / socket errors (all runs) |")
print("|---|---|---|---|---|---|")
for s, label in (("idgen", "idgen `GET /ids/orders` (segment, MariaDB)"),
                 ("leaf", "Leaf 1.0.1 `GET /api/segment/get/orders` (segment, MariaDB)")):
    print(f"| {label} | {fig(s, 2):,.0f} | {ms(fig(s, 3))} | {ms(fig(s, 4))} | {ms(fig(s, 5))}"
          f" | {failed(side[s])} |")
print(f"| **idgen / Leaf**, median of per-round ratios (min-max) | **{med(ratios):.3f}**"
      f" ({min(ratios):.3f}-{max(ratios):.3f}) | | | | |")
print()
print("| round | idgen req/s (mean of 2 runs) | Leaf req/s (mean of 2 runs) | ratio | idgen p99 | Leaf p99 |")
print("|---|---|---|---|---|---|")
for n in range(1, rounds + 1):
    i = [r for r in side["idgen"] if int(r[0]) == n]
    l = [r for r in side["leaf"] if int(r[0]) == n]
    print(f"| {n} | {per_round('idgen')[n - 1]:,.0f} | {per_round('leaf')[n - 1]:,.0f} | {ratios[n - 1]:.3f}"
          f" | {' / '.join(ms(int(r[4])) for r in i)} | {' / '.join(ms(int(r[4])) for r in l)} |")
print()
brows = [line.split() for line in open(batches)]
http = [r for r in brows if r[1] == "http"]
grpc = [r for r in brows if r[1] == "grpc"]
leaf_ceiling = fig("leaf", 2)
print(f"| batches of {count} (idgen) | requests/s (median) | IDs/s (median, runs) | p50 | p99"
      " | non-2xx (gRPC: failed calls) / socket errors |")
print("|---|---|---|---|---|---|")
if http:
    ids = [int(r[2]) * count for r in http]
    print(f"| HTTP `GET /ids/orders?count={count}`, wrk -t{threads} -c{connections} -d{batch_seconds}s"
          f" | {med(int(r[2]) for r in http):,.0f} | **{med(ids):,.0f}** ({', '.join(f'{v:,}' for v in ids)})"
          f" | {ms(med(int(r[3]) for r in http))} | {ms(med(int(r[4]) for r in http))}"
          f" | {failed(http)} |")
if grpc:
    ids = [int(r[3]) for r in grpc]
    print(f"| gRPC `NextIds` count={count}, {grpc_calls} concurrent calls, {batch_seconds} s windows"
          f" (GrpcBatchLoad) | {med(int(r[2]) for r in grpc):,.0f}"
          f" | **{med(ids):,.0f}** ({', '.join(f'{v:,}' for v in ids)})"
          f" | {ms(med(int(r[4]) for r in grpc))} | {ms(med(int(r[5]) for r in grpc))}"
          f" | {failed(grpc)} |")
else:
    print("| gRPC | the load driver printed nothing | | | | |")
print(f"| Leaf 1.0.1: one ID per request, no batch form | {leaf_ceiling:,.0f} | {leaf_ceiling:,.0f} | | | |")
errors += sum(int(r[6]) + int(r[7]) for r in brows)
sys.exit(0 if errors == 0 and grpc else 1)
PY
if [ "$status" -ne 0 ]; then
  echo "failures: the servers' warnings and errors, last 20 lines each" >&2
  for name in idgen leaf; do
    { grep -E ' (WARN|ERROR) ' "$work/$name.log" || true; } | tail -20 | sed "s/^/$name: /" >&2
  done
fi
exit "$status"
