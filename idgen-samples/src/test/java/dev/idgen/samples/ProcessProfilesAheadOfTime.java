package dev.idgen.samples;

import java.nio.file.Path;
import java.util.Arrays;
import org.springframework.boot.SpringApplicationAotProcessor;
import org.springframework.context.aot.AbstractAotProcessor;

/**
 * Processes the sample ahead of time once per profile, all in one JVM (a JVM start per profile would cost about as
 * much again as the processing). Arguments: the output directory, then the profiles; each profile's generated sources,
 * resources and classes go to {@code <output>/<profile>/sources|resources|classes}.
 *
 * <p>{@link AotProcessedProfilesTest} runs it in a JVM of its own: processing sets {@code spring.aot.processing} for
 * the whole JVM, and the sample's component scan must not see the test classes (their {@code @TestConfiguration}s).
 */
public final class ProcessProfilesAheadOfTime {

    private ProcessProfilesAheadOfTime() {}

    public static void main(String[] args) {
        Path output = Path.of(args[0]);
        for (String profile : Arrays.asList(args).subList(1, args.length)) {
            Path out = output.resolve(profile);
            AbstractAotProcessor.Settings settings = AbstractAotProcessor.Settings.builder()
                    .sourceOutput(out.resolve("sources"))
                    .resourceOutput(out.resolve("resources"))
                    .classOutput(out.resolve("classes"))
                    .groupId("dev.idgen")
                    .artifactId("idgen-samples")
                    .build();
            // The profile is active at processing time: its conditions decide which beans the code registers.
            new SpringApplicationAotProcessor(
                            IdServiceApplication.class, settings, new String[] {"--spring.profiles.active=" + profile})
                    .process();
            System.out.println("idgen: processed profile " + profile);
        }
    }
}
