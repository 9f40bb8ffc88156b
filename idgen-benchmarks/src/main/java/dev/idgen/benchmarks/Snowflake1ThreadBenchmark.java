package dev.idgen.benchmarks;

import org.openjdk.jmh.annotations.Threads;

/** {@link SnowflakeBenchmarks} with one calling thread. */
@Threads(1)
public class Snowflake1ThreadBenchmark extends SnowflakeBenchmarks {}
