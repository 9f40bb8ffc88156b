package dev.idgen.test.services;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;

/**
 * A wall clock for one server process of the test's own that the test can step while the server runs: libfaketime
 * preloaded into that process only, reading its offset from a file of this clock's own. Only the wall clock moves
 * ({@code FAKETIME_DONT_FAKE_MONOTONIC}), as when NTP steps a host's clock; the server's timers keep real time.
 *
 * <p>A server that lets its clock be replaced reads the offset file itself instead (ZooKeeper, see
 * {@link OwnZooKeeperCluster#restartOn}). libfaketime reads the file at most once a second ({@code FAKETIME_CACHE_DURATION=1}: without a cache a JVM took
 * minutes to start), so a step shows within about a second; a test waits for it on the server's own clock. A JVM under
 * libfaketime burns much of a core: keep such a server's life short.
 */
public final class ShiftedClock implements AutoCloseable {

    private static final Path LIBRARY = Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1");

    private final Path dir;
    private final Path offsetFile;
    private volatile Duration offset = Duration.ZERO;

    private ShiftedClock(Path dir) {
        this.dir = dir;
        this.offsetFile = dir.resolve("offset");
    }

    /**
     * A clock at real time until {@link #shiftTo stepped}.
     *
     * @throws IllegalStateException naming the package to install when libfaketime is missing
     */
    public static ShiftedClock create() throws IOException {
        if (!Files.isReadable(LIBRARY)) {
            throw new IllegalStateException("This test steps a server's clock with libfaketime and needs " + LIBRARY
                    + ": install it with 'apt-get install libfaketime'");
        }
        Path dir = OwnProcesses.createTempDir("idgen-clock-");
        // Servers that drop root (PostgreSQL runs as postgres) read the offset too.
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        ShiftedClock clock = new ShiftedClock(dir);
        clock.shiftTo(Duration.ZERO);
        return clock;
    }

    /** The environment that puts a server process started with it on this clock. */
    public Map<String, String> environment() {
        return Map.of(
                "LD_PRELOAD",
                LIBRARY.toString(),
                "FAKETIME_TIMESTAMP_FILE",
                offsetFile.toString(),
                "FAKETIME_CACHE_DURATION",
                "1",
                "FAKETIME_DONT_FAKE_MONOTONIC",
                "1");
    }

    /**
     * Sets the clock to real time plus {@code offset} (negative: behind): a step by the difference to the last offset.
     * Written to a new file and moved into place, so that the server never reads half an offset.
     */
    public void shiftTo(Duration offset) throws IOException {
        long seconds = offset.toSeconds();
        Path next = dir.resolve("offset.next");
        Files.writeString(next, (seconds >= 0 ? "+" : "") + seconds + "s\n", StandardCharsets.US_ASCII);
        Files.setPosixFilePermissions(next, PosixFilePermissions.fromString("rw-r--r--"));
        Files.move(next, offsetFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        this.offset = offset;
    }

    /** @return the file holding the offset, as {@code +600s} or {@code -600s}, for a server that reads it itself */
    Path offsetFile() {
        return offsetFile;
    }

    /** @return the offset from real time last set */
    public Duration offset() {
        return offset;
    }

    @Override
    public void close() {
        OwnProcesses.deleteTempDir(dir);
    }

    @Override
    public String toString() {
        return "clock at real time " + (offset.isNegative() ? "" : "+") + offset.toSeconds() + " s";
    }
}
