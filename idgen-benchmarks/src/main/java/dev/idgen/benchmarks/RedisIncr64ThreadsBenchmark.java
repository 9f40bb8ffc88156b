package dev.idgen.benchmarks;

import org.openjdk.jmh.annotations.Threads;

/** {@link RedisIncrBenchmarks} with 64 calling thread(s). */
@Threads(64)
public class RedisIncr64ThreadsBenchmark extends RedisIncrBenchmarks {}
