package dev.idgen.cli;

import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.snowflake.SnowflakeDecodedId;
import dev.idgen.core.snowflake.SnowflakeLayout;
import dev.idgen.core.snowflake.SnowflakePreset;
import dev.idgen.core.snowflake.TickUnit;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code decode}: each ID's time, worker id and sequence, under one layout or under every preset. */
@Command(
        name = "decode",
        mixinStandardHelpOptions = true,
        description = {
            "Prints each ID's time (UTC), worker id and sequence.",
            "Default layout: idgen's standard one (41 bits of ms since 2025-01-01T00:00:00Z, 10 worker bits, 12"
                    + " sequence bits). --layout all reads each ID under every preset, to tell which library made it."
        })
final class DecodeCommand implements Callable<Integer> {

    @Option(
            names = "--layout",
            paramLabel = "<preset>",
            description =
                    "A preset (twitter, hutool, mybatis-plus, leaf, cosid, uid-generator, sonyflake, sonyflake-v2, yitter),"
                            + " idgen (the standard layout) or all.")
    private String layout;

    @Option(names = "--epoch", paramLabel = "<instant>", description = "Epoch; default 2025-01-01T00:00:00Z.")
    private String epoch;

    @Option(names = "--time-unit", paramLabel = "<unit>", description = "milliseconds (default) or seconds.")
    private String timeUnit;

    @Option(names = "--timestamp-bits", paramLabel = "<bits>", description = "Bits of the tick count; default 41.")
    private Integer timestampBits;

    @Option(names = "--worker-bits", paramLabel = "<bits>", description = "Bits of the worker id; default 10.")
    private Integer workerBits;

    @Option(names = "--sequence-bits", paramLabel = "<bits>", description = "Bits of the sequence; default 12.")
    private Integer sequenceBits;

    @Parameters(paramLabel = "ID", arity = "1..*", description = "IDs, decimal.")
    private List<String> ids = new ArrayList<>();

    private final PrintStream out;
    private final Clock clock;

    DecodeCommand(PrintStream out, Clock clock) {
        this.out = out;
        this.clock = clock;
    }

    @Override
    public Integer call() {
        List<Long> parsed = new ArrayList<>();
        for (String text : ids) {
            parsed.add(parseId(text));
        }
        boolean fields = epoch != null
                || timeUnit != null
                || timestampBits != null
                || workerBits != null
                || sequenceBits != null;
        if (layout != null && fields) {
            throw new UsageException("--layout and the layout's fields (--epoch, --time-unit, --timestamp-bits,"
                    + " --worker-bits, --sequence-bits) exclude each other: give one or the other");
        }
        if (layout != null && layout.trim().equalsIgnoreCase("all")) {
            for (long id : parsed) {
                printEveryReading(id);
            }
            return IdgenCli.OK;
        }
        SnowflakeLayout chosen = fields ? customLayout() : null;
        SnowflakePreset preset = null;
        if (layout != null && !layout.trim().equalsIgnoreCase("idgen")) {
            preset = presetOf(layout);
        }
        for (long id : parsed) {
            SnowflakeDecodedId decoded = preset != null
                    ? preset.decode(id)
                    : SnowflakeDecodedId.decode(chosen != null ? chosen : SnowflakeLayout.standard(), id);
            out.println(id + "  " + parts(decoded));
        }
        return IdgenCli.OK;
    }

    /** Every preset's reading, presets that read alike on one line, and which readings lie in the future. */
    private void printEveryReading(long id) {
        Map<String, List<String>> names = new LinkedHashMap<>();
        Map<String, SnowflakeDecodedId> readings = new LinkedHashMap<>();
        readings.put("idgen", SnowflakeDecodedId.decode(SnowflakeLayout.standard(), id));
        for (SnowflakePreset preset : SnowflakePreset.values()) {
            readings.put(preset.key(), preset.decode(id));
        }
        Instant now = clock.instant();
        readings.forEach((name, decoded) -> {
            String text = parts(decoded) + (decoded.timestamp().isAfter(now) ? "  (in the future)" : "");
            names.computeIfAbsent(text, k -> new ArrayList<>()).add(name);
        });
        out.println(id);
        names.forEach((text, presets) ->
                out.println(String.format(Locale.ROOT, "  %-37s %s", String.join(", ", presets), text)));
    }

    private static String parts(SnowflakeDecodedId decoded) {
        return "time " + decoded.timestamp() + "  worker " + decoded.workerId() + "  sequence " + decoded.sequence();
    }

    private SnowflakeLayout customLayout() {
        SnowflakeLayout standard = SnowflakeLayout.standard();
        SnowflakeLayout.Builder builder = standard.toBuilder();
        if (epoch != null) {
            try {
                builder.epoch(Instant.parse(epoch.trim()));
            } catch (DateTimeParseException e) {
                throw new UsageException(
                        "invalid value for --epoch '" + epoch + "': expected an instant such as 2025-01-01T00:00:00Z");
            }
        }
        if (timeUnit != null) {
            builder.tickUnit(
                    switch (timeUnit.trim().toLowerCase(Locale.ROOT)) {
                        case "milliseconds", "ms" -> TickUnit.MILLISECONDS;
                        case "seconds", "s" -> TickUnit.SECONDS;
                        default ->
                            throw new UsageException("invalid value for --time-unit '" + timeUnit
                                    + "': expected milliseconds or seconds");
                    });
        }
        if (timestampBits != null) {
            builder.timestampBits(timestampBits);
        }
        if (workerBits != null) {
            builder.workerBits(workerBits);
        }
        if (sequenceBits != null) {
            builder.sequenceBits(sequenceBits);
        }
        // The builder names the field that breaks its rule (InvalidArgumentException): one line, exit 2.
        return builder.build();
    }

    static SnowflakePreset presetOf(String text) {
        try {
            return SnowflakePreset.parse(text);
        } catch (InvalidArgumentException e) {
            throw new UsageException("invalid value for --layout: " + e.getMessage() + " (or idgen, or all)");
        }
    }

    /** Parses an ID of the command line: a decimal from 0 to 2^63-1. */
    static long parseId(String text) {
        String trimmed = text.trim();
        if (trimmed.startsWith("--")) {
            throw new UsageException("unknown option '" + trimmed + "' (see decode --help)");
        }
        long id;
        try {
            id = Long.parseLong(trimmed);
        } catch (NumberFormatException e) {
            throw new UsageException(
                    "invalid ID '" + text + "': expected a decimal number from 0 to " + Long.MAX_VALUE);
        }
        if (id < 0) {
            throw new UsageException("invalid ID '" + text + "': IDs are never negative");
        }
        return id;
    }
}
