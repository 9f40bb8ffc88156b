package dev.idgen.benchmarks;

import org.openjdk.jmh.annotations.Threads;

/** {@link SegmentBenchmarks} with 2 calling thread(s). */
@Threads(2)
public class Segment2ThreadsBenchmark extends SegmentBenchmarks {}
