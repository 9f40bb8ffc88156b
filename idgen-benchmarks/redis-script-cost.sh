#!/usr/bin/env bash
# Redis CPU per call of the redis strategy's increment script and of its pieces: each script is loaded, run with
# redis-benchmark (one connection, one command in flight), and timed by Redis itself (INFO commandstats: usec of
# EVALSHA before and after, so the socket work is left out). Rounds alternate the scripts. Then the bare round trip on
# loopback (PING, INCR) at one in flight. Writes two keys under idgen-script-cost: and deletes them.
#
#   idgen-benchmarks/redis-script-cost.sh            # ROUNDS=3 N=20000 by default
#
# "idgen" is the script as RedisWindowedCounter.INCREMENT sends it (RedisScript.REPLICATION first), read from the source;
# "idgen-find-mget" is the same with a plain string.find for master_replid and one MGET for the window and the counter
# (an experiment of issue 41, not used).
set -euo pipefail
cd "$(dirname "$0")/.."
R="redis-cli ${REDIS_CLI_ARGS:-}"
ROUNDS="${ROUNDS:-3}"
N="${N:-20000}"
replid=$($R INFO replication | tr -d '\r' | sed -n 's/^master_replid://p')
K='idgen-script-cost:{c}'
W='idgen-script-cost:{c}:window'
$R SET "$K" 4503599627370496 >/dev/null
$R SET "$W" "0:1000000000000:$replid" >/dev/null
idgen=$(python3 - <<'PY'
import textwrap
def block(path, start):
    s = open(path).read()
    i = s.index('"""', s.index(start)) + 3
    return textwrap.dedent(s[i:s.index('"""', i)])
print(block('idgen-redis/src/main/java/dev/idgen/redis/RedisScript.java', 'static final String REPLICATION')
      + block('idgen-redis/src/main/java/dev/idgen/redis/RedisWindowedCounter.java', 'static final RedisScript INCREMENT'))
PY
)
variant=$(printf '%s\n' "$idgen" | python3 -c '
import sys
s = sys.stdin.read()
s = s.replace("local replid = string.match(replication, '"'"'master_replid:(%w+)'"'"')",
              "local at = string.find(replication, '"'"'master_replid:'"'"', 1, true)\nlocal replid = at and string.match(replication, '"'"'^%w+'"'"', at + 14)")
s = s.replace("local window = redis.call('"'"'GET'"'"', KEYS[2])", "local both = redis.call('"'"'MGET'"'"', KEYS[2], KEYS[1])\nlocal window = both[1]")
s = s.replace("tonumber(redis.call('"'"'GET'"'"', KEYS[1]) or '"'"'0'"'"')", "tonumber(both[2] or '"'"'0'"'"')")
print(s)')
names=(empty incr info info+match idgen idgen-find-mget)
declare -A src=(
  [empty]="return 1"
  [incr]="return redis.call('INCRBY', KEYS[1], ARGV[1])"
  [info]="local r = redis.call('INFO', 'replication') return 1"
  [info+match]="local r = redis.call('INFO', 'replication') local id = string.match(r, 'master_replid:(%w+)') return 1"
  [idgen]="$idgen"
  [idgen-find-mget]="$variant"
)
declare -A sha
for name in "${names[@]}"; do
  sha[$name]=$($R SCRIPT LOAD "${src[$name]}")
done
echo "idgen answers $($R EVALSHA "${sha[idgen]}" 2 "$K" "$W" 1 | tr '\n' ' '), idgen-find-mget $($R EVALSHA "${sha[idgen-find-mget]}" 2 "$K" "$W" 1 | tr '\n' ' ')(1 and the last value: the window path)"
stat() { $R INFO commandstats | tr -d '\r' | sed -n 's/^cmdstat_evalsha:calls=\([0-9]*\),usec=\([0-9]*\),.*/\1 \2/p'; }
for round in $(seq "$ROUNDS"); do
  line="round $round:"
  for name in "${names[@]}"; do
    before=$(stat)
    redis-benchmark -q -c 1 -n "$N" EVALSHA "${sha[$name]}" 2 "$K" "$W" 1 >/dev/null
    after=$(stat)
    set -- $before $after
    line="$line  $name $(echo "scale=2; ($4 - $2) / ($3 - $1)" | bc) us"
  done
  echo "$line"
done
$R DEL "$K" "$W" >/dev/null
echo "bare round trip at one in flight (redis-benchmark -c 1):"
redis-benchmark -c 1 -n "$N" -t ping_mbulk,incr --csv
