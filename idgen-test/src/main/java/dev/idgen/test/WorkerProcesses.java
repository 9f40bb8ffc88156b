package dev.idgen.test;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * What the multi-process fault tests share about their worker JVMs: a worker writes one line per ID handed out, the
 * test reads only whole lines (an ID counts as handed out once its line reached the pipe), and the test signals the
 * worker ({@code STOP}, {@code CONT}) with {@code kill}.
 */
public final class WorkerProcesses {

    private WorkerProcesses() {}

    /**
     * Appends {@code lines} to the worker's output, or flushes it when {@code lines} is {@code null}; the drawing
     * threads and the flushing loop share {@code out}, so each call holds its lock.
     */
    public static void write(Writer out, CharSequence lines) {
        synchronized (out) {
            try {
                if (lines == null) {
                    out.flush();
                } else {
                    out.append(lines);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /**
     * Hands each whole line of the worker's standard output to {@code line}, without its newline, until the output
     * ends. What is left without a newline was cut short by a SIGKILL: that ID never reached the pipe whole (read as a
     * number it would be another, smaller ID), so it is dropped.
     */
    public static void readWholeLines(Process worker, Consumer<String> line) {
        try (InputStream in = new BufferedInputStream(worker.getInputStream(), 1 << 16)) {
            StringBuilder current = new StringBuilder(64);
            int b;
            while ((b = in.read()) >= 0) {
                if (b != '\n') {
                    current.append((char) b);
                    continue;
                }
                line.accept(current.toString());
                current.setLength(0);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Sends {@code signal} (e.g. {@code STOP}, {@code CONT}) to the worker with {@code kill}.
     *
     * @throws IllegalStateException when {@code kill} fails or takes longer than 30 s
     */
    public static void signal(Process worker, String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(worker.pid())).start();
        if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + worker.pid() + " failed");
        }
    }
}
