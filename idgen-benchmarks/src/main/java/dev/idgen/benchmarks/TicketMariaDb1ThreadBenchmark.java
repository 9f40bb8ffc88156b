package dev.idgen.benchmarks;

import org.openjdk.jmh.annotations.Threads;

/** {@link TicketMariaDbBenchmarks} with 1 calling thread(s). */
@Threads(1)
public class TicketMariaDb1ThreadBenchmark extends TicketMariaDbBenchmarks {}
