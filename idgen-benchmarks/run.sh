#!/usr/bin/env bash
# Runs every comparison of the performance table in docs/benchmarks.md, idgen beside its peers in one JVM (contenders alternate
# in short blocks, ratios taken per round), at default settings unless a row names a setting, and prints the table as
# Markdown with the date, the machine and its load. Needs Redis on 127.0.0.1:6379 and MariaDB on 127.0.0.1:3306 (as
# the tests do; IDGEN_BENCH_REDIS_HOST/PORT and IDGEN_BENCH_MARIADB_URL point elsewhere).
#
#   idgen-benchmarks/run.sh            # build, then measure everything (about 5 minutes)
#   ROUNDS=20 ONLY='redis|ticket' SKIP_BUILD=1 idgen-benchmarks/run.sh
#
# Exits non-zero when a row misses its target. Progress goes to standard error, the table to standard output.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS="${ROUNDS:-10}"
ONLY="${ONLY:-.*}"
JAR=idgen-benchmarks/target/benchmarks.jar

if [ -z "${SKIP_BUILD:-}" ]; then
  ./mvnw -B -q -pl idgen-samples,idgen-server,idgen-benchmarks -am package -DskipTests >&2
fi

load() { cut -d' ' -f1-3 /proc/loadavg; }
cpu="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
java_version="$(java -version 2>&1 | head -1)"
load_before="$(load)"
started="$(date -u '+%Y-%m-%d %H:%M UTC')"

status=0
table="$(java -Xms1g -Xmx1g -cp "$JAR" dev.idgen.benchmarks.PerformanceTable "$ROUNDS" "$ONLY")" || status=$?
startup=""
if [[ "startup" =~ ^($ONLY)$ ]]; then
  startup="$(java -cp "$JAR" dev.idgen.benchmarks.StartupShare)" || status=$?
fi

echo "Measured ${started} with \`idgen-benchmarks/run.sh\` (ROUNDS=${ROUNDS}): $(nproc) cores (${cpu}), ${java_version},"
echo "load average (1/5/15 min) ${load_before} before and $(load) after. Every row alternates its contenders in"
echo "blocks inside one JVM (A B B A, 100-200 ms blocks); the ratio is the median of the per-round ratios, with the"
echo "lowest and highest round in brackets."
echo
echo "$table"
if [ -n "$startup" ]; then
  echo
  echo "$startup"
fi
exit "$status"
