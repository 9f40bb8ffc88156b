package dev.idgen.benchmarks;

import java.io.BufferedReader;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;

/**
 * idgen's share of the sample application's start-up: the same application started with and without idgen's
 * auto-configuration, in pairs, each start a fresh JVM.
 *
 * <pre>
 * java -cp idgen-benchmarks/target/benchmarks.jar dev.idgen.benchmarks.StartupShare [pairs=8] [detail=true]
 * </pre>
 *
 * <p>Method. The child is the sample's executable jar ({@code idgen-samples/target/idgen-samples.jar}, default
 * profile: Snowflake with a static worker id, no external service) on a random port ({@code --server.port=0}),
 * launched through the jar's own {@code PropertiesLauncher} so that {@code loader.path} can add {@link StartupProbe}
 * (see there) without changing the sample. The two sides of a pair differ in one thing:
 * <ul>
 * <li><b>with idgen</b>: the sample as is;</li>
 * <li><b>without idgen</b>: {@code --spring.autoconfigure.exclude=} every class that idgen's jars list in
 * {@code META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports}, and a stand-in
 * {@code IdService} (a counter) registered by the probe, because the sample's controller cannot be built without one.
 * idgen's jars stay on the class path; Spring still loads the excluded classes' names to check them.</li>
 * </ul>
 * One start runs first and is discarded (it reads the jar into the page cache). Then the pairs run one
 * after another, the order alternating (with-without, without-with, ...) so that a machine slowing down or speeding up
 * over the run weighs on both sides alike. Each figure is reported as the median of the per-pair differences (with
 * minus without), with a distribution-free 95% confidence interval of that median (order statistics of the binomial
 * distribution; none below 6 pairs, where the lowest and highest difference are shown instead).
 *
 * <p>Figures per start (from the probe, at {@code ApplicationReadyEvent}): JVM uptime (wall time until the application
 * is ready to serve), CPU time of the main thread (where Spring creates the context and its beans) and of the whole
 * process, and loaded classes. With {@code detail=true} (the default) every start records Spring's start-up steps
 * ({@code BufferingApplicationStartup}, about 400 steps; both sides record, so the recording cancels out in the
 * differences), and the starts with idgen sum the self time of idgen's beans' creation steps: what idgen's beans cost
 * themselves, beside what is not a bean step (loading classes before their beans, Spring evaluating idgen's
 * conditions and parsing its configuration classes).
 *
 * <p>Markdown for docs/benchmarks.md goes to standard output, progress to standard error. Exits 0 whether the share is under
 * the 150 ms target or not (the text says which, and what costs it); non-zero only when it could not measure: the
 * sample jar missing, a start failing or taking longer than three minutes.
 */
public final class StartupShare {

    private static final Path SAMPLE_JAR = Path.of("idgen-samples", "target", "idgen-samples.jar");

    private static final String BUILD = "./mvnw -B -q -o -DskipTests package -pl idgen-samples,idgen-benchmarks -am";

    private static final String IMPORTS =
            "META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports";

    private static final String LAUNCHER = "org.springframework.boot.loader.launch.PropertiesLauncher";

    private static final double TARGET_MS = 150;

    /** A loaded machine took up to 180 s to start a JVM with Spring (platform notes); longer means something broke. */
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

    /** SIGTERM first (Spring closes the context, Tomcat shuts down gracefully), then SIGKILL. */
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);

    /**
     * run.sh runs it with no arguments and should spend about two minutes here: on two shared cores a start of the
     * sample, from launch to stopped, took 6-8 s (20 pairs took 5.5 minutes), and 8 pairs with the warm-up are 17
     * starts. More pairs narrow the interval.
     */
    private static final int DEFAULT_PAIRS = 8;

    private static final int TAIL_LINES = 40;

    /** The child running now, for the shutdown hook: an interrupted measurement leaves no application behind. */
    private static final AtomicReference<Process> RUNNING = new AtomicReference<>();

    /** One start's figures, as the probe printed them. */
    private record Start(
            double wallMs,
            double mainCpuMs,
            double processCpuMs,
            double classes,
            int steps,
            double idgenMs,
            int idgenBeans,
            String idgenTop) {}

    private final Path jar;
    private final Path probe;
    private final List<String> idgenAutoConfigurations;

    private StartupShare(Path jar, Path probe, List<String> idgenAutoConfigurations) {
        this.jar = jar;
        this.probe = probe;
        this.idgenAutoConfigurations = idgenAutoConfigurations;
    }

    public static void main(String[] args) throws Exception {
        int pairs = DEFAULT_PAIRS;
        boolean detail = true;
        for (String arg : args) {
            if (arg.matches("(pairs=)?[1-9][0-9]{0,3}")) {
                pairs = Integer.parseInt(arg.substring(arg.indexOf('=') + 1));
            } else if (arg.matches("detail=(true|false)")) {
                detail = Boolean.parseBoolean(arg.substring("detail=".length()));
            } else {
                System.err.println("Unknown argument '" + arg + "'. Usage: java -cp idgen-benchmarks/target/"
                        + "benchmarks.jar dev.idgen.benchmarks.StartupShare [pairs=" + DEFAULT_PAIRS
                        + "] [detail=true|false]");
                System.exit(2);
            }
        }
        if (!Files.isRegularFile(SAMPLE_JAR)) {
            System.err.println("StartupShare: the sample's executable jar " + SAMPLE_JAR.toAbsolutePath()
                    + " is missing. Build it from the repository root with: " + BUILD);
            System.exit(1);
        }
        List<String> autoConfigurations = idgenAutoConfigurations(SAMPLE_JAR);
        if (autoConfigurations.isEmpty()) {
            System.err.println("StartupShare: no idgen jar in " + SAMPLE_JAR + " lists an auto-configuration in "
                    + IMPORTS + "; rebuild with: " + BUILD);
            System.exit(1);
        }
        Path probe = writeProbe();
        // Also on Ctrl-C or kill: no application left running, no probe directory left in /tmp.
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            Process child = RUNNING.get();
                            if (child != null) {
                                child.destroyForcibly();
                            }
                            deleteTree(probe);
                        },
                        "startup-share-cleanup"));
        System.out.println(new StartupShare(SAMPLE_JAR, probe, autoConfigurations).measure(pairs, detail));
    }

    private String measure(int pairs, boolean detail) throws Exception {
        System.err.printf(
                Locale.ROOT,
                "StartupShare: %d pairs of starts of %s, without idgen = excluding %s%n",
                pairs,
                jar,
                idgenAutoConfigurations);
        // Both sides read the same jar: one start puts it in the page cache for both.
        System.err.println("warm-up (not counted):");
        start(true, detail);
        List<Start> with = new ArrayList<>();
        List<Start> without = new ArrayList<>();
        for (int pair = 0; pair < pairs; pair++) {
            // Alternating which side goes first cancels a machine speeding up or slowing down within a pair.
            boolean withFirst = pair % 2 == 0;
            System.err.printf(Locale.ROOT, "pair %d/%d:%n", pair + 1, pairs);
            Start first = start(withFirst, detail);
            Start second = start(!withFirst, detail);
            Start a = withFirst ? first : second;
            Start b = withFirst ? second : first;
            with.add(a);
            without.add(b);
            System.err.printf(
                    Locale.ROOT,
                    "  with - without: wall %+.0f ms, main CPU %+.0f ms, process CPU %+.0f ms," + " classes %+.0f%n",
                    a.wallMs() - b.wallMs(),
                    a.mainCpuMs() - b.mainCpuMs(),
                    a.processCpuMs() - b.processCpuMs(),
                    a.classes() - b.classes());
        }
        return report(with, without, detail);
    }

    private String report(List<Start> with, List<Start> without, boolean detail) {
        double[] wall = differences(with, without, Start::wallMs);
        double share = median(wall);
        StringBuilder text = new StringBuilder(String.format(
                Locale.ROOT,
                "Start-up share (%d %s of starts of the"
                        + " sample, default profile, as is vs with idgen's %d auto-configurations excluded and a counter as"
                        + " the controller's `IdService`, order alternating; `java -cp idgen-benchmarks/target/benchmarks.jar"
                        + " dev.idgen.benchmarks.StartupShare pairs=%d`): wall time to ready %s ms (median of the pair"
                        + " differences, 95%% confidence interval in brackets) on %.0f ms without idgen, main-thread CPU %s ms,"
                        + " process CPU %s ms, %s classes loaded",
                wall.length,
                wall.length == 1 ? "pair" : "pairs",
                idgenAutoConfigurations.size(),
                wall.length,
                figure(wall),
                median(sorted(without.stream().mapToDouble(Start::wallMs).toArray())),
                figure(differences(with, without, Start::mainCpuMs)),
                figure(differences(with, without, Start::processCpuMs)),
                figure(differences(with, without, Start::classes))));
        double[] idgenMs = sorted(with.stream().mapToDouble(Start::idgenMs).toArray());
        if (detail) {
            // The largest beans of the start whose bean total is the median (the lower one of an even count).
            Start typical = with.stream()
                    .sorted(Comparator.comparingDouble(Start::idgenMs))
                    .toList()
                    .get((with.size() - 1) / 2);
            double[] interval = interval(idgenMs);
            text.append(String.format(
                    Locale.ROOT,
                    "; creating idgen's %d beans takes %.0f ms (%.0f..%.0f; self time"
                            + " of their start-up steps in the starts with idgen; largest: %s ms)",
                    typical.idgenBeans(),
                    median(idgenMs),
                    interval[0],
                    interval[1],
                    typical.idgenTop().replace(",", ", ").replace(":", " ")));
        }
        text.append('.');
        double[] interval = interval(wall);
        if (wall.length < 6) {
            text.append(String.format(
                    Locale.ROOT,
                    " Too few pairs for a confidence interval: no verdict on the %.0f ms" + " target.",
                    TARGET_MS));
        } else if (interval[1] < 0) {
            // idgen adds work to the start-up; a start reliably faster with it says the machine's load moved.
            text.append(String.format(
                    Locale.ROOT,
                    " The starts with idgen came out faster, which only the machine's"
                            + " varying load explains: no verdict on the %.0f ms target (more pairs, a quieter machine).",
                    TARGET_MS));
        } else if (interval[1] < TARGET_MS) {
            text.append(String.format(Locale.ROOT, " Under the %.0f ms target.", TARGET_MS));
        } else if (share < TARGET_MS) {
            text.append(String.format(
                    Locale.ROOT,
                    " Under the %.0f ms target by the median, but the interval reaches"
                            + " above it: the starts varied too much to be sure (more pairs, a quieter machine).",
                    TARGET_MS));
        } else {
            boolean unsure = interval[0] < TARGET_MS;
            text.append(String.format(
                    Locale.ROOT,
                    " **Above the %.0f ms target**%s: ",
                    TARGET_MS,
                    unsure ? " by the median, but the interval reaches below it" : ""));
            text.append(
                    !detail
                            ? "run with detail=true to see what idgen's beans cost."
                            : String.format(
                                    Locale.ROOT,
                                    "of the %.0f ms, creating idgen's beans takes %.0f ms; the rest is"
                                            + " loading idgen's classes and Spring's work on its auto-configurations outside bean"
                                            + " creation (conditions, configuration classes)%s.",
                                    share,
                                    median(idgenMs),
                                    unsure ? ", or the starts' variation" : ""));
        }
        return text.toString();
    }

    /**
     * Starts the sample once, waits until the probe reports it ready, and stops it.
     *
     * @param withIdgen the sample as is, or with idgen's auto-configuration excluded and the stand-in
     * @param detail whether the probe records start-up steps
     */
    private Start start(boolean withIdgen, boolean detail) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-D" + StartupProbe.STAND_IN + "=" + !withIdgen,
                "-D" + StartupProbe.DETAIL + "=" + detail,
                "-Dloader.path=" + probe,
                "-cp",
                jar.toString(),
                LAUNCHER,
                "--server.port=0"));
        if (!withIdgen) {
            command.add("--spring.autoconfigure.exclude=" + String.join(",", idgenAutoConfigurations));
        }
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        // The default profile and settings are what is measured: a profile or an idgen setting in this shell's
        // environment would change what the sample starts.
        builder.environment().keySet().removeIf(name -> name.startsWith("SPRING_") || name.startsWith("IDGEN_"));
        Process child = builder.start();
        RUNNING.set(child);
        Deque<String> tail = new ArrayDeque<>();
        CompletableFuture<String> ready = new CompletableFuture<>();
        Thread reader = new Thread(() -> read(child.getInputStream(), ready, tail), "startup-share-child-output");
        reader.setDaemon(true);
        reader.start();
        try {
            Start start = parse(ready.get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS));
            System.err.printf(
                    Locale.ROOT,
                    "  %-7s wall %5.0f ms, main CPU %5.0f ms, process CPU %5.0f ms," + " %5.0f classes, load %s%s%n",
                    withIdgen ? "with" : "without",
                    start.wallMs(),
                    start.mainCpuMs(),
                    start.processCpuMs(),
                    start.classes(),
                    loadAverage(),
                    !detail
                            ? ""
                            : String.format(
                                    Locale.ROOT,
                                    "; %d steps, idgen's %d beans %.1f ms (largest: %s)",
                                    start.steps(),
                                    start.idgenBeans(),
                                    start.idgenMs(),
                                    start.idgenTop()));
            return start;
        } catch (TimeoutException e) {
            throw new IllegalStateException(
                    "The sample did not start within " + START_TIMEOUT.toSeconds() + " s (" + String.join(" ", command)
                            + "); its last lines:\n" + lines(tail),
                    e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "The sample stopped before it was ready (" + String.join(" ", command) + "); its last lines:\n"
                            + lines(tail),
                    e.getCause());
        } finally {
            stop(child);
            RUNNING.set(null);
        }
    }

    /** The one-minute load average, for the progress lines: a start that took long on a busy machine shows why. */
    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    /** Reads the child's output to its end (a full pipe would stall it), keeping the last lines for errors. */
    private static void read(InputStream output, CompletableFuture<String> ready, Deque<String> tail) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(output, StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.startsWith(StartupProbe.LINE)) {
                    ready.complete(line);
                }
                synchronized (tail) {
                    tail.addLast(line);
                    if (tail.size() > TAIL_LINES) {
                        tail.removeFirst();
                    }
                }
            }
            ready.completeExceptionally(new EOFException("the output ended"));
        } catch (IOException | RuntimeException e) {
            ready.completeExceptionally(e);
        }
    }

    private static String lines(Deque<String> tail) {
        synchronized (tail) {
            return String.join("\n", tail);
        }
    }

    private static void stop(Process child) throws InterruptedException {
        child.destroy();
        if (!child.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            child.destroyForcibly();
            if (!child.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("The sample (pid " + child.pid() + ") did not stop after SIGKILL");
            }
        }
    }

    private static Start parse(String line) {
        Map<String, String> values = new HashMap<>();
        for (String pair : line.substring(StartupProbe.LINE.length()).trim().split(" ")) {
            int equals = pair.indexOf('=');
            values.put(pair.substring(0, equals), pair.substring(equals + 1));
        }
        return new Start(
                Double.parseDouble(values.get("wallMs")),
                Double.parseDouble(values.get("mainCpuMs")),
                Double.parseDouble(values.get("processCpuMs")),
                Double.parseDouble(values.get("classes")),
                Integer.parseInt(values.getOrDefault("steps", "0")),
                Double.parseDouble(values.getOrDefault("idgenMs", "0")),
                Integer.parseInt(values.getOrDefault("idgenBeans", "0")),
                values.getOrDefault("idgenTop", ""));
    }

    /**
     * The auto-configurations idgen's jars inside the sample declare: what Spring would load from them, read from
     * the jar the child runs rather than from this shaded jar (which keeps only one of the imports files it merged).
     */
    static List<String> idgenAutoConfigurations(Path sampleJar) throws IOException {
        List<String> classes = new ArrayList<>();
        try (ZipFile sample = new ZipFile(sampleJar.toFile())) {
            List<? extends ZipEntry> idgenJars = sample.stream()
                    .filter(entry -> entry.getName().matches("BOOT-INF/lib/idgen-[^/]*\\.jar"))
                    .toList();
            for (ZipEntry idgenJar : idgenJars) {
                try (ZipInputStream nested = new ZipInputStream(sample.getInputStream(idgenJar))) {
                    for (ZipEntry entry = nested.getNextEntry(); entry != null; entry = nested.getNextEntry()) {
                        if (entry.getName().equals(IMPORTS)) {
                            new String(nested.readAllBytes(), StandardCharsets.UTF_8)
                                    .lines()
                                    .map(String::strip)
                                    .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                                    .forEach(classes::add);
                        }
                    }
                }
            }
        }
        return classes;
    }

    /** A directory holding {@link StartupProbe}'s classes and the spring.factories that registers it. */
    private static Path writeProbe() throws IOException {
        Path directory = Files.createTempDirectory("idgen-startup-probe");
        for (Class<?> type : StartupProbe.class.getNestMembers()) {
            String resource = type.getName().replace('.', '/') + ".class";
            Path target = directory.resolve(resource);
            Files.createDirectories(target.getParent());
            try (InputStream in = StartupShare.class.getClassLoader().getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException(resource + " is not on the class path");
                }
                Files.copy(in, target);
            }
        }
        Path factories = directory.resolve("META-INF/spring.factories");
        Files.createDirectories(factories.getParent());
        Files.writeString(
                factories, "org.springframework.context.ApplicationListener=" + StartupProbe.class.getName() + "\n");
        return directory;
    }

    private static void deleteTree(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.delete(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            System.err.println("StartupShare: could not delete " + directory + ": " + e);
        }
    }

    private static double[] differences(List<Start> with, List<Start> without, ToDoubleFunction<Start> figure) {
        double[] differences = new double[with.size()];
        for (int i = 0; i < differences.length; i++) {
            differences[i] = figure.applyAsDouble(with.get(i)) - figure.applyAsDouble(without.get(i));
        }
        return sorted(differences);
    }

    private static double[] sorted(double[] values) {
        double[] copy = values.clone();
        Arrays.sort(copy);
        return copy;
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /**
     * The 95% confidence interval of the median of {@code sorted}: the k-th lowest and highest value, k the largest
     * rank that the median falls below with probability at most 2.5% (binomial, p = 1/2), whatever the distribution
     * of the values. Fewer than 6 values allow no such k: then the lowest and highest value.
     */
    static double[] interval(double[] sorted) {
        int n = sorted.length;
        double probability = Math.pow(0.5, n);
        double cumulative = 0;
        int k = 0;
        for (int j = 0; j < n; j++) {
            cumulative += probability;
            if (cumulative > 0.025) {
                break;
            }
            k = j + 1;
            probability = probability * (n - j) / (j + 1);
        }
        return k == 0 ? new double[] {sorted[0], sorted[n - 1]} : new double[] {sorted[k - 1], sorted[n - k]};
    }

    /** The median and its interval, e.g. {@code +37 (12..61)}; {@code (range -5..+80)} below 6 values. */
    static String figure(double[] sorted) {
        double[] interval = interval(sorted);
        return String.format(
                Locale.ROOT,
                "%+.0f (%s%+.0f..%+.0f)",
                median(sorted),
                sorted.length < 6 ? "range " : "",
                interval[0],
                interval[1]);
    }
}
