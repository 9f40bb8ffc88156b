package dev.idgen.test;

import java.io.File;
import java.util.ArrayList;
import java.util.List;

/**
 * The start of the command line of a JVM that a test starts (a worker, a server, a client): this JVM's {@code java},
 * a heap bound, and the flags that keep a short-lived JVM cheap on a small machine.
 *
 * <p>C1 alone ({@code -XX:TieredStopAtLevel=1}) and the serial collector: a JVM that lives seconds to minutes spends
 * much of its CPU in C2 compiling code it will not run long enough to profit from, and in G1's concurrent threads. On
 * the 2-core machine the suite's budget is measured on, the starter's tests took 294 s of CPU with the defaults and
 * 146 s with these flags (the root pom gives them to every test JVM too). What the tests check (uniqueness, the order
 * of events, what a fault does) does not depend on the JIT tier; JCStress, whose races do, runs its forks with the
 * defaults.
 */
public final class ChildJvm {

    /** The flags given to every JVM a test starts, and (from the root pom) to the test JVMs themselves. */
    public static final List<String> FLAGS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

    private ChildJvm() {}

    /**
     * A new, mutable command line: this JVM's {@code java}, {@code -Xmx<maxHeap>} and {@link #FLAGS}; the caller adds
     * its class path, main class and arguments.
     */
    public static List<String> command(String maxHeap) {
        List<String> command = new ArrayList<>();
        command.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        command.add("-Xmx" + maxHeap);
        command.addAll(FLAGS);
        return command;
    }
}
