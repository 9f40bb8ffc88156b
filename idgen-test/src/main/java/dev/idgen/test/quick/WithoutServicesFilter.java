package dev.idgen.test.quick;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.platform.engine.FilterResult;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.PostDiscoveryFilter;

/**
 * The fast inner loop ({@code -Pquick}, which sets {@code idgen.test.without-services=true}): leaves out every test
 * class that needs an external service, so that the unit and contract tests of a module run without Redis, MariaDB,
 * PostgreSQL, etcd or ZooKeeper. Without that property it passes everything, and the full suite runs.
 *
 * <p>A class needs a service when it, or a test helper it uses, calls into {@code dev.idgen.test.services}: every real
 * server a test talks to comes from there ({@code TestServices} for the shared ones, the {@code Own*} classes for the
 * servers a test starts and kills). Only the endpoint records ({@code TestServices.JdbcEndpoint}, {@code RedisEndpoint})
 * do not count: an H2 contract test describes its in-memory database with one. A helper that finds a service some
 * other way says so with {@link NeedsServices}. The classes are read, not loaded: the calls are the member references
 * in their constant pools, and the classes they name are followed through the test classes and idgen-test's own,
 * never into main code (which does not know the test services). So a new test is sorted without anyone tagging it.
 */
public final class WithoutServicesFilter implements PostDiscoveryFilter {

    /** The system property that turns the filter on. */
    public static final String PROPERTY = "idgen.test.without-services";

    private static final String SERVICES = "dev/idgen/test/services/";

    private static final Pattern CLASS_NAME = Pattern.compile("dev/idgen/[A-Za-z0-9_/$]+");

    private final boolean active = Boolean.getBoolean(PROPERTY);

    private final Map<String, Boolean> needsServices = new ConcurrentHashMap<>();

    @Override
    public FilterResult apply(TestDescriptor descriptor) {
        if (!active) {
            return FilterResult.included("the full suite");
        }
        Optional<String> testClass = descriptor.getSource().flatMap(WithoutServicesFilter::className);
        if (testClass.isEmpty()) {
            return FilterResult.included("not a test class");
        }
        return needsServices.computeIfAbsent(testClass.get(), WithoutServicesFilter::reachesServices)
                ? FilterResult.excluded("needs an external service (uses dev.idgen.test.services)")
                : FilterResult.included("needs no external service");
    }

    private static Optional<String> className(TestSource source) {
        if (source instanceof ClassSource classSource) {
            return Optional.of(classSource.getClassName());
        }
        if (source instanceof MethodSource methodSource) {
            return Optional.of(methodSource.getClassName());
        }
        return Optional.empty();
    }

    private static boolean reachesServices(String className) {
        if (className.replace('.', '/').startsWith(SERVICES)) {
            return true; // the services' own tests start the servers they test
        }
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        Deque<String> toRead = new ArrayDeque<>();
        Set<String> seen = new HashSet<>();
        toRead.add(className.replace('.', '/'));
        while (!toRead.isEmpty()) {
            String name = toRead.poll();
            if (!seen.add(name)) {
                continue;
            }
            // The services package itself is judged by what calls into it, never read: a class that only names the
            // endpoint records still carries "TestServices" (their outer class) in its constant pool.
            if (name.startsWith(SERVICES)) {
                continue;
            }
            URL resource = loader.getResource(name + ".class");
            if (resource == null || !followed(name, resource)) {
                continue;
            }
            ConstantPool pool = ConstantPool.of(read(resource));
            if (pool.memberOwners().stream().anyMatch(WithoutServicesFilter::providesAService)
                    || pool.strings().contains(NEEDS_SERVICES)) {
                return true;
            }
            for (String string : pool.strings()) {
                Matcher referenced = CLASS_NAME.matcher(string);
                while (referenced.find()) {
                    toRead.add(referenced.group());
                }
            }
        }
        return false;
    }

    private static final String NEEDS_SERVICES =
            "L" + NeedsServices.class.getName().replace('.', '/') + ";";

    private static boolean providesAService(String owner) {
        return owner.startsWith(SERVICES)
                && !owner.equals(SERVICES + "TestServices$JdbcEndpoint")
                && !owner.equals(SERVICES + "TestServices$RedisEndpoint");
    }

    /** Test classes (of any module) and idgen-test's own: where a reference to the test services can hide. */
    private static boolean followed(String name, URL resource) {
        String where = resource.toString();
        return where.contains("/test-classes/") || name.startsWith("dev/idgen/test/");
    }

    private static byte[] read(URL resource) {
        try (InputStream in = resource.openStream()) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + resource, e);
        }
    }

    /** The parts of a class file's constant pool the filter reads (JVMS 4.4). */
    private record ConstantPool(List<String> strings, List<String> memberOwners) {

        static ConstantPool of(byte[] classFile) {
            ByteBuffer in = ByteBuffer.wrap(classFile);
            in.position(8); // magic, minor and major version
            int count = Short.toUnsignedInt(in.getShort());
            String[] utf8 = new String[count];
            int[] classNameIndex = new int[count];
            List<Integer> ownerClassIndexes = new ArrayList<>();
            for (int i = 1; i < count; i++) {
                int tag = Byte.toUnsignedInt(in.get());
                switch (tag) {
                    case 1 -> {
                        byte[] bytes = new byte[Short.toUnsignedInt(in.getShort())];
                        in.get(bytes);
                        // Modified UTF-8; class names and descriptors are plain ASCII, which it keeps as is.
                        utf8[i] = new String(bytes, StandardCharsets.UTF_8);
                    }
                    case 7 -> classNameIndex[i] = Short.toUnsignedInt(in.getShort());
                    case 9, 10, 11 -> {
                        ownerClassIndexes.add(Short.toUnsignedInt(in.getShort()));
                        in.getShort();
                    }
                    case 3, 4, 12, 17, 18 -> in.getInt();
                    case 5, 6 -> {
                        in.getLong();
                        i++; // a long or double takes two entries
                    }
                    case 8, 16, 19, 20 -> in.getShort();
                    case 15 -> {
                        in.get();
                        in.getShort();
                    }
                    default -> throw new IllegalStateException("constant pool tag " + tag + " at entry " + i);
                }
            }
            List<String> strings = new ArrayList<>();
            for (String each : utf8) {
                if (each != null) {
                    strings.add(each);
                }
            }
            List<String> owners = new ArrayList<>();
            for (int index : ownerClassIndexes) {
                owners.add(utf8[classNameIndex[index]]);
            }
            return new ConstantPool(strings, owners);
        }
    }
}
