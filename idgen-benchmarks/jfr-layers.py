#!/usr/bin/env python3
# Splits the JFR execution samples of one thread into layers, for the account of the redis strategy's event loop
# (docs/benchmarks.md, issue 41): each sample goes to the leaf-most frame that belongs to a known layer.
#   jfr print --events jdk.ExecutionSample rec.jfr | idgen-benchmarks/jfr-layers.py lettuce-epollEventLoop-6
import re, sys, collections
want = sys.argv[1]
layers = [
    ("Lettuce: encode and write a command", re.compile(r"io\.lettuce\.core\.protocol\.(CommandArgs|CommandEncoder|Command\.encode|AsyncCommand\.encode|CommandHandler\.(write|addToStack)|DefaultEndpoint|SharedLock|MaintenanceAware)|io\.lettuce\.core\.datastructure|io\.lettuce\.core\.(AbstractRedisAsyncCommands|RedisCommandBuilder|cluster)")),
    ("Lettuce: read and decode an answer", re.compile(r"io\.lettuce\.core\.(protocol\.(CommandHandler\.(decode|channelRead|complete|canComplete)|RedisStateMachine|AsyncCommand\.(complete|getOutput|hashCode))|output)")),
    ("Reactor: Mono per call, concatMap hand-out, re-subscription", re.compile(r"^reactor\.")),
    ("idgen: coalescer, executor, counter", re.compile(r"^dev\.idgen\.")),
    ("CompletableFuture stages, orTimeout", re.compile(r"^java\.util\.concurrent\.(CompletableFuture|ScheduledThreadPoolExecutor|Delayed)")),
    ("Netty: event loop, buffers, socket", re.compile(r"^io\.netty\.")),
]
count = collections.Counter(); total = 0
for ev in sys.stdin.read().split("jdk.ExecutionSample")[1:]:
    m = re.search(r'sampledThread = "([^"]*)"', ev)
    if not m or not m.group(1).startswith(want):
        continue
    frames = re.findall(r"^\s+([\w.$<>]+)\(", ev, re.M)
    if not frames:
        continue
    total += 1
    owner = "other (JDK collections, hashing)"
    for f in frames:
        hit = next((name for name, rx in layers if rx.search(f)), None)
        if hit:
            owner = hit
            break
    count[owner] += 1
print(f"{total} samples of {want}")
for name, c in count.most_common():
    print(f"{100.0 * c / total:5.1f} %  {name}")
