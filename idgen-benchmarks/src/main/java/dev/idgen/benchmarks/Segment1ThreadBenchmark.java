package dev.idgen.benchmarks;

import org.openjdk.jmh.annotations.Threads;

/** {@link SegmentBenchmarks} with 1 calling thread(s). */
@Threads(1)
public class Segment1ThreadBenchmark extends SegmentBenchmarks {}
