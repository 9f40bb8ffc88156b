package dev.idgen.benchmarks;

import org.openjdk.jmh.annotations.Threads;

/** {@link ReadableIdBenchmarks} on 16 thread(s). */
@Threads(16)
public class ReadableId16ThreadsBenchmark extends ReadableIdBenchmarks {}
