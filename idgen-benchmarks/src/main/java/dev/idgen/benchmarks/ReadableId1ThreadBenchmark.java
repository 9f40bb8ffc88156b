package dev.idgen.benchmarks;

import org.openjdk.jmh.annotations.Threads;

/** {@link ReadableIdBenchmarks} on 1 thread(s). */
@Threads(1)
public class ReadableId1ThreadBenchmark extends ReadableIdBenchmarks {}
