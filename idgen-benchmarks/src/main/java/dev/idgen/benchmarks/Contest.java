package dev.idgen.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Contenders compared in one JVM by alternating them in short blocks, for a machine whose speed drifts from second to
 * second (two shared cores, the database and Redis on the same cores): the same worker threads run side A for one
 * block, then side B, then B again and A again (A B … B A for more sides), round after round, and each ratio is taken
 * per round, between blocks that ran next to each other in time. JMH runs one benchmark after another, so on such a
 * machine its error bars are wider than the differences sought.
 *
 * <p>Each side runs {@code batch} operations per call in its own loop (its own class, so the calls inside stay
 * monomorphic for the JIT); a block's rate is the operations its batches completed over the block's wall time.
 */
final class Contest {

    /** One contender: runs {@code n} operations and returns a value that depends on all of them. */
    @FunctionalInterface
    interface Side {
        long run(int n) throws Exception;
    }

    /** The rates of one comparison: per side, one rate per round. */
    record Result(String title, int threads, List<String> sides, double[][] rates) {

        double mean(String side) {
            return Arrays.stream(rates[sides.indexOf(side)]).average().orElse(0);
        }

        /** @return per round, {@code a}'s rate over {@code b}'s, sorted */
        double[] ratios(String a, String b) {
            double[] x = rates[sides.indexOf(a)];
            double[] y = rates[sides.indexOf(b)];
            double[] r = new double[x.length];
            for (int i = 0; i < r.length; i++) {
                r[i] = x[i] / y[i];
            }
            Arrays.sort(r);
            return r;
        }

        /** @return per round, {@code a}'s rate over the best of {@code others} in that round, sorted */
        double[] ratiosToBest(String a, String... others) {
            double[] x = rates[sides.indexOf(a)];
            double[] r = new double[x.length];
            for (int i = 0; i < r.length; i++) {
                double best = 0;
                for (String other : others) {
                    best = Math.max(best, rates[sides.indexOf(other)][i]);
                }
                r[i] = x[i] / best;
            }
            Arrays.sort(r);
            return r;
        }
    }

    private static final int IDLE = -1;
    private static final int STOP = -2;

    /** Keeps results alive so the JIT cannot drop the work. */
    static volatile long sink;

    private Contest() {}

    /**
     * @param title what is compared, for progress output
     * @param threads worker threads, all running the same side at a time
     * @param batch operations per side call (1 for remote calls; about 1,000 for nanosecond ones)
     * @param warmupMillis alternating blocks run before measuring, not recorded
     * @param rounds measured rounds
     * @param blockMillis the length of one block
     * @param sides the contenders, in order
     */
    static Result run(
            String title,
            int threads,
            int batch,
            long warmupMillis,
            int rounds,
            long blockMillis,
            Map<String, Side> sides)
            throws InterruptedException {
        return run(title, threads, batch, warmupMillis, rounds, blockMillis, sides, () -> {});
    }

    /**
     * As {@link #run(String, int, int, long, int, long, Map)}, calling {@code afterWarmup} between the warm-up and the
     * first measured block, while the workers idle.
     */
    static Result run(
            String title,
            int threads,
            int batch,
            long warmupMillis,
            int rounds,
            long blockMillis,
            Map<String, Side> sides,
            Runnable afterWarmup)
            throws InterruptedException {
        List<String> names = new ArrayList<>(sides.keySet());
        Side[] side = sides.values().toArray(new Side[0]);
        int k = side.length;
        LongAdder[] counts = new LongAdder[k];
        for (int s = 0; s < k; s++) {
            counts[s] = new LongAdder();
        }
        Mode control = new Mode();
        List<Thread> workers = new ArrayList<>();
        Throwable[] failure = new Throwable[1];
        for (int t = 0; t < threads; t++) {
            Thread worker = new Thread(
                    () -> {
                        long local = 0;
                        try {
                            for (int m = control.value; m != STOP; m = control.value) {
                                if (m == IDLE) {
                                    Thread.onSpinWait();
                                    continue;
                                }
                                local += side[m].run(batch);
                                counts[m].add(batch);
                            }
                        } catch (Throwable e) {
                            synchronized (failure) {
                                failure[0] = e;
                            }
                            control.value = STOP;
                        }
                        sink += local;
                    },
                    "contest-" + t);
            worker.setDaemon(true);
            workers.add(worker);
        }
        workers.forEach(Thread::start);
        int[] order = new int[2 * k];
        for (int s = 0; s < k; s++) {
            order[s] = s;
            order[2 * k - 1 - s] = s;
        }
        long warmupEnd = System.nanoTime() + warmupMillis * 1_000_000;
        for (int i = 0; System.nanoTime() < warmupEnd; i++) {
            control.value = order[i % order.length];
            Thread.sleep(Math.min(blockMillis, Math.max(1, (warmupEnd - System.nanoTime()) / 1_000_000)));
        }
        control.value = IDLE;
        Thread.sleep(20); // calls under way finish
        afterWarmup.run();
        double[][] rates = new double[k][rounds];
        for (int r = 0; r < rounds && failure[0] == null; r++) {
            for (int s : order) {
                long before = counts[s].sum();
                long started = System.nanoTime();
                control.value = s;
                Thread.sleep(blockMillis);
                long ended = System.nanoTime();
                // Operations still running when the block ends count for it; they started inside it.
                rates[s][r] += (counts[s].sum() - before) * 1e9 / (ended - started) / 2;
            }
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %s, round %d:", title, r + 1));
            for (int s = 0; s < k; s++) {
                line.append(String.format(Locale.ROOT, " %s %,.0f", names.get(s), rates[s][r]));
            }
            System.err.println(line);
        }
        control.value = STOP;
        for (Thread worker : workers) {
            worker.join(60_000);
        }
        if (failure[0] != null) {
            throw new IllegalStateException(title + ": a side failed", failure[0]);
        }
        return new Result(title, threads, names, rates);
    }

    /** The side every worker runs now, or {@link #IDLE} / {@link #STOP}. */
    private static final class Mode {
        volatile int value = IDLE;
    }

    static Map<String, Side> sides() {
        return new LinkedHashMap<>();
    }
}
