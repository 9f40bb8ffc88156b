package dev.idgen.benchmarks;

import org.openjdk.jmh.annotations.Threads;

/** {@link TicketMariaDbBenchmarks} with 16 calling thread(s). */
@Threads(16)
public class TicketMariaDb16ThreadsBenchmark extends TicketMariaDbBenchmarks {}
