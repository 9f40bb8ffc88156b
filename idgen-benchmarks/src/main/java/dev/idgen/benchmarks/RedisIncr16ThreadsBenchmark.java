package dev.idgen.benchmarks;

import org.openjdk.jmh.annotations.Threads;

/** {@link RedisIncrBenchmarks} with 16 calling thread(s). */
@Threads(16)
public class RedisIncr16ThreadsBenchmark extends RedisIncrBenchmarks {}
