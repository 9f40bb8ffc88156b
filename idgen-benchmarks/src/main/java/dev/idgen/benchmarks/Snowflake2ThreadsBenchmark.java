package dev.idgen.benchmarks;

import org.openjdk.jmh.annotations.Threads;

/** {@link SnowflakeBenchmarks} with two calling threads sharing each generator. */
@Threads(2)
public class Snowflake2ThreadsBenchmark extends SnowflakeBenchmarks {}
