package dev.idgen.benchmarks;

import org.openjdk.jmh.annotations.Threads;

/** {@link RedisIncrBenchmarks} with 1 calling thread(s). */
@Threads(1)
public class RedisIncr1ThreadBenchmark extends RedisIncrBenchmarks {}
