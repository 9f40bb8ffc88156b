package dev.idgen.benchmarks;

import com.sun.management.OperatingSystemMXBean;
import dev.idgen.core.DecodedId;
import dev.idgen.core.IdService;
import dev.idgen.core.form.IdForm;
import dev.idgen.core.form.IdForms;
import dev.idgen.core.form.IdText;
import dev.idgen.core.form.TextIdForm;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.event.ApplicationStartingEvent;
import org.springframework.boot.context.event.SpringApplicationEvent;
import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.boot.context.metrics.buffering.StartupTimeline;
import org.springframework.context.ApplicationListener;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.metrics.StartupStep;

/**
 * The part of {@link StartupShare} that runs inside the sample application it starts, never in the benchmarks' own
 * JVM. StartupShare copies this class (and its nested classes) with a {@code META-INF/spring.factories} naming it as
 * an {@code ApplicationListener} into a directory on the child's {@code loader.path}, so the sample's jar and code stay
 * as users get them, and both sides of a pair carry the same probe. Spring Boot 4 no longer has
 * {@code context.listener.classes}, hence spring.factories.
 *
 * <p>It prints one line, {@value #LINE} followed by {@code key=value} pairs, when the application is ready:
 * <ul>
 * <li>{@code wallMs}: JVM uptime at {@code ApplicationReadyEvent}, what a user waits for;</li>
 * <li>{@code mainCpuMs}: CPU time of the main thread, which does Spring's start-up work (the event is published on
 * it); {@code processCpuMs}: CPU time of the whole process (JIT compiler, GC and Tomcat threads too);</li>
 * <li>{@code classes}: classes loaded so far;</li>
 * <li>with {@code -D}{@value #DETAIL}{@code =true}, {@code idgenMs}: the self time (own duration less that of the
 * steps nested in it) of the {@code spring.beans.instantiate} start-up steps of idgen's beans, and {@code idgenTop}:
 * the largest of them; {@code steps}: how many steps were recorded. A {@link BufferingApplicationStartup} installed
 * when the application starts records them, on both sides of a pair alike.</li>
 * </ul>
 * With {@code -D}{@value #STAND_IN}{@code =true} it registers {@link StandInIdService}, the one bean the sample cannot
 * start without once idgen's auto-configuration is excluded (its controller takes an {@link IdService}).
 */
public final class StartupProbe implements ApplicationListener<SpringApplicationEvent> {

    /** The start of the line the probe prints when the application is ready. */
    static final String LINE = "idgen-startup-probe:";

    /** System property: register {@link StandInIdService} (the side without idgen). */
    static final String STAND_IN = "idgen.startup.stand-in";

    /** System property: record start-up steps and report idgen's bean steps. */
    static final String DETAIL = "idgen.startup.detail";

    /** Room for every step of the sample's start-up with plenty to spare (StartupShare reports how many were kept). */
    private static final int STEP_CAPACITY = 20_000;

    private static final int TOP = 3;

    private BufferingApplicationStartup steps;

    @Override
    public void onApplicationEvent(SpringApplicationEvent event) {
        if (event instanceof ApplicationStartingEvent starting && Boolean.getBoolean(DETAIL)) {
            // Before the context exists, so that every bean's creation is recorded.
            steps = new BufferingApplicationStartup(STEP_CAPACITY);
            starting.getSpringApplication().setApplicationStartup(steps);
        } else if (event instanceof ApplicationPreparedEvent prepared && Boolean.getBoolean(STAND_IN)) {
            // The sample's controller takes an IdService and its entity's @IdgenId an IdForms.
            GenericApplicationContext context = (GenericApplicationContext) prepared.getApplicationContext();
            StandInIdService ids = new StandInIdService();
            context.registerBean("idService", StandInIdService.class, () -> ids);
            context.registerBean("idForms", StandInIdForms.class, () -> new StandInIdForms(ids));
        } else if (event instanceof ApplicationReadyEvent ready) {
            report(ready);
        }
    }

    private void report(ApplicationReadyEvent ready) {
        long entered = System.nanoTime();
        // Reading the figures loads the management classes; their cost is taken off the wall time below and is the
        // same on both sides for the CPU times and class counts.
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        boolean onMain = Thread.currentThread().getName().equals("main");
        long mainCpu = onMain && threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : -1;
        long processCpu = ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os
                ? os.getProcessCpuTime()
                : -1;
        long classes = ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
        long uptimeMs = ManagementFactory.getRuntimeMXBean().getUptime();
        double wallMs = uptimeMs - (System.nanoTime() - entered) / 1e6;
        StringBuilder line = new StringBuilder(LINE)
                .append(" wallMs=")
                .append(format(wallMs))
                .append(" mainCpuMs=")
                .append(format(mainCpu / 1e6))
                .append(" processCpuMs=")
                .append(format(processCpu / 1e6))
                .append(" classes=")
                .append(classes);
        if (steps != null) {
            appendIdgenSteps(line, ready.getApplicationContext().getBeanFactory());
        }
        System.out.println(line);
        System.out.flush();
    }

    private void appendIdgenSteps(StringBuilder line, ConfigurableListableBeanFactory beans) {
        List<StartupTimeline.TimelineEvent> events = steps.getBufferedTimeline().getEvents();
        // A bean's step contains the steps of the beans it needed created first: count each nanosecond once.
        Map<Long, Long> nestedNanos = new HashMap<>();
        for (StartupTimeline.TimelineEvent event : events) {
            Long parent = event.getStartupStep().getParentId();
            if (parent != null) {
                nestedNanos.merge(parent, event.getDuration().toNanos(), Long::sum);
            }
        }
        Map<String, Long> selfNanos = new HashMap<>();
        for (StartupTimeline.TimelineEvent event : events) {
            StartupStep step = event.getStartupStep();
            String bean = step.getName().equals("spring.beans.instantiate") ? tag(step, "beanName") : null;
            if (bean != null && isIdgens(beans, bean)) {
                long self = event.getDuration().toNanos() - nestedNanos.getOrDefault(step.getId(), 0L);
                selfNanos.merge(bean, self, Long::sum);
            }
        }
        long total = selfNanos.values().stream().mapToLong(Long::longValue).sum();
        List<Map.Entry<String, Long>> largest = new ArrayList<>(selfNanos.entrySet());
        largest.sort(Map.Entry.<String, Long>comparingByValue().reversed());
        StringBuilder top = new StringBuilder();
        for (Map.Entry<String, Long> bean : largest.subList(0, Math.min(TOP, largest.size()))) {
            // Bean names hold no spaces or commas; the line is split on both.
            top.append(top.isEmpty() ? "" : ",")
                    .append(shortName(bean.getKey()))
                    .append(':')
                    .append(format(bean.getValue() / 1e6));
        }
        line.append(" steps=")
                .append(events.size())
                .append(" idgenBeans=")
                .append(selfNanos.size())
                .append(" idgenMs=")
                .append(format(total / 1e6))
                .append(" idgenTop=")
                .append(top);
    }

    /** {@code IdgenProperties} for {@code idgen-dev.idgen.spring.boot.autoconfigure.core.IdgenProperties}. */
    private static String shortName(String bean) {
        return bean.contains("-dev.idgen.") ? bean.substring(bean.lastIndexOf('.') + 1) : bean;
    }

    private static String tag(StartupStep step, String key) {
        for (StartupStep.Tag tag : step.getTags()) {
            if (tag.getKey().equals(key)) {
                return tag.getValue();
            }
        }
        return null;
    }

    /**
     * Whether idgen's starter contributed the bean: its class, the class declaring its {@code @Bean} method, or its
     * type lies in {@code dev.idgen}, apart from the sample's own classes and this probe (on both sides alike).
     */
    private static boolean isIdgens(ConfigurableListableBeanFactory beans, String name) {
        String bean = BeanFactoryUtils.transformedBeanName(name);
        try {
            BeanDefinition definition = beans.getMergedBeanDefinition(bean);
            String factory = definition.getFactoryBeanName();
            Class<?> factoryType = factory != null ? beans.getType(factory, false) : null;
            Class<?> type = beans.getType(bean, false);
            return isIdgens(definition.getBeanClassName())
                    || (factoryType != null && isIdgens(factoryType.getName()))
                    || (type != null && isIdgens(type.getName()));
        } catch (NoSuchBeanDefinitionException e) {
            return false; // an inner bean or a singleton registered by hand: nothing to tell it by
        }
    }

    private static boolean isIdgens(String className) {
        return className != null
                && className.startsWith("dev.idgen.")
                && !className.startsWith("dev.idgen.samples.")
                && !className.startsWith("dev.idgen.benchmarks.");
    }

    private static String format(double millis) {
        return String.format(Locale.ROOT, "%.1f", millis);
    }

    /**
     * The sample's {@link IdService} on the side without idgen: a counter, so that the controller the sample maps can
     * be built, and nothing else (the side measures Spring Boot and the sample, not an ID generator).
     */
    static final class StandInIdService implements IdService {

        private final AtomicLong next = new AtomicLong();

        @Override
        public String strategy() {
            return "stand-in";
        }

        @Override
        public long nextId(String name) {
            return next.incrementAndGet();
        }

        @Override
        public long[] nextIds(String name, int count) {
            long last = next.addAndGet(count);
            long[] ids = new long[count];
            for (int i = 0; i < count; i++) {
                ids[i] = last - count + 1 + i;
            }
            return ids;
        }

        @Override
        public DecodedId decode(long id) {
            throw new UnsupportedOperationException("a stand-in for start-up measurements decodes nothing");
        }
    }

    /**
     * The sample's {@link IdForms} on the side without idgen, for the entity's {@code @IdgenId}: decimal strings of the
     * stand-in's counter.
     */
    static final class StandInIdForms implements IdForms {

        private final IdService ids;

        StandInIdForms(IdService ids) {
            this.ids = ids;
        }

        @Override
        public IdForm form(String name) {
            return new TextIdForm(name, ids.sequence(name), IdText.decimal());
        }
    }
}
