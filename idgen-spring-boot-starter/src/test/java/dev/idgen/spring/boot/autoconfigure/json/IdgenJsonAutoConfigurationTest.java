package dev.idgen.spring.boot.autoconfigure.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idgen.spring.IdgenId;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link IdgenId} longs through the {@code JsonMapper} Spring Boot builds (Jackson 3), and through the Jackson 2
 * {@code ObjectMapper} of Spring Boot's deprecated Jackson 2 support.
 */
class IdgenJsonAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(IdgenJsonAutoConfiguration.class, JacksonAutoConfiguration.class));

    /** A class with an annotated field, an annotated getter, an annotated boxed field and a plain long. */
    public static class Order {

        @IdgenId("orders")
        public long id;

        @IdgenId("customers")
        public Long customerId;

        public long quantity;

        private long invoiceId;

        @IdgenId("invoices")
        public long getInvoiceId() {
            return invoiceId;
        }

        public void setInvoiceId(long invoiceId) {
            this.invoiceId = invoiceId;
        }
    }

    /** A record: the annotation on the component reaches the field, the accessor and the constructor. */
    public record Line(
            @IdgenId("lines") long id, @IdgenId("orders") Long orderId, long position) {}

    /** A single ID as a bare JSON value. */
    public record Id(
            @com.fasterxml.jackson.annotation.JsonValue @IdgenId("orders")
            long value) {}

    @Test
    void writesAnnotatedLongsAsStringsAndLeavesOtherLongsNumbers() {
        runner.run(context -> {
            JsonMapper json = context.getBean(JsonMapper.class);
            Order order = new Order();
            order.id = 7281937148463104123L;
            order.customerId = 9007199254740993L;
            order.quantity = 3;
            order.setInvoiceId(42);
            assertThat(json.writeValueAsString(order))
                    .contains("\"id\":\"7281937148463104123\"")
                    .contains("\"customerId\":\"9007199254740993\"")
                    .contains("\"quantity\":3")
                    .contains("\"invoiceId\":\"42\"");
            assertThat(json.writeValueAsString(new Line(9007199254740993L, null, 2)))
                    .isEqualTo("{\"id\":\"9007199254740993\",\"orderId\":null,\"position\":2}");
            assertThat(json.writeValueAsString(java.util.List.of(new Id(1), new Id(Long.MAX_VALUE))))
                    .isEqualTo("[\"1\",\"" + Long.MAX_VALUE + "\"]");
        });
    }

    @Test
    void readsAnIdFromAStringOrANumberAndNullAsNull() {
        runner.run(context -> {
            JsonMapper json = context.getBean(JsonMapper.class);
            Order order = json.readValue(
                    "{\"id\":\"7281937148463104123\",\"customerId\":12,\"quantity\":3," + "\"invoiceId\":\"42\"}",
                    Order.class);
            assertThat(order.id).isEqualTo(7281937148463104123L);
            assertThat(order.customerId).isEqualTo(12L);
            assertThat(order.getInvoiceId()).isEqualTo(42L);
            assertThat(json.readValue("{\"id\":5,\"customerId\":null}", Order.class).customerId)
                    .isNull();
            assertThat(json.readValue("{\"id\":\"9007199254740993\",\"orderId\":\"12\",\"position\":2}", Line.class))
                    .isEqualTo(new Line(9007199254740993L, 12L, 2));
            assertThat(json.readValue("{\"id\":1,\"orderId\":null,\"position\":2}", Line.class)
                            .orderId())
                    .isNull();
            assertThat(json.readValue("\"77\"", Id.class)).isEqualTo(new Id(77));
        });
    }

    @Test
    void aStringThatIsNotAnIdFailsNamingTheProperty() {
        runner.run(context -> {
            JsonMapper json = context.getBean(JsonMapper.class);
            assertThatThrownBy(() -> json.readValue("{\"customerId\":\"12abc\"}", Order.class))
                    .isInstanceOf(DatabindException.class)
                    .hasMessageContaining("'customerId' must be a 64-bit whole number, as a string or a number, but"
                            + " was '12abc'");
            assertThatThrownBy(() -> json.readValue("{\"id\":\"99999999999999999999\",\"position\":1}", Line.class))
                    .isInstanceOf(DatabindException.class)
                    .hasMessageContaining("'id' must be a 64-bit whole number");
            assertThatThrownBy(() -> json.readValue("{\"id\":1.5}", Order.class))
                    .isInstanceOf(DatabindException.class)
                    .hasMessageContaining("'id' must be a 64-bit whole number")
                    .hasMessageContaining("fraction");
        });
    }

    @Test
    void offTheIdsAreNumbers() {
        runner.withPropertyValues("idgen.json.ids-as-strings=false").run(context -> {
            JsonMapper json = context.getBean(JsonMapper.class);
            assertThat(json.writeValueAsString(new Line(9007199254740993L, 4L, 2)))
                    .isEqualTo("{\"id\":9007199254740993,\"orderId\":4,\"position\":2}");
        });
    }

    @Test
    void aBadSettingFailsTheStartNamingTheProperty() {
        runner.withPropertyValues("idgen.json.ids-as-strings=maybe")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .hasStackTraceContaining("idgen.json.ids-as-strings"));
    }

    @Test
    void withoutJackson2OnlyTheJackson3ModuleIsThere() {
        runner.withClassLoader(new FilteredClassLoader("com.fasterxml.jackson.databind"))
                .run(context -> assertThat(context)
                        .hasSingleBean(dev.idgen.spring.jackson.IdgenJacksonModule.class)
                        .doesNotHaveBean("idgenJackson2Module"));
    }

    @Test
    void withoutJackson3OnlyTheJackson2ModuleIsThere() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(IdgenJsonAutoConfiguration.class))
                .withClassLoader(new FilteredClassLoader("tools.jackson"))
                .run(context -> assertThat(context)
                        .hasSingleBean(dev.idgen.spring.jackson.IdgenJackson2Module.class)
                        .doesNotHaveBean("idgenJacksonModule"));
    }

    @Test
    @SuppressWarnings("removal")
    void jackson2ObjectMapperWritesAndReadsTheSameWay() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        IdgenJsonAutoConfiguration.class,
                        org.springframework.boot.jackson2.autoconfigure.Jackson2AutoConfiguration.class))
                .run(context -> {
                    ObjectMapper json = context.getBean(ObjectMapper.class);
                    Order order = new Order();
                    order.id = 7281937148463104123L;
                    order.quantity = 3;
                    assertThat(json.writeValueAsString(order))
                            .contains("\"id\":\"7281937148463104123\"")
                            .contains("\"customerId\":null")
                            .contains("\"quantity\":3");
                    assertThat(json.writeValueAsString(new Line(9007199254740993L, 4L, 2)))
                            .isEqualTo("{\"id\":\"9007199254740993\",\"orderId\":\"4\",\"position\":2}");
                    assertThat(json.readValue("{\"id\":\"9007199254740993\",\"orderId\":4,\"position\":2}", Line.class))
                            .isEqualTo(new Line(9007199254740993L, 4L, 2));
                    assertThatThrownBy(() -> json.readValue("{\"id\":\"x1\"}", Order.class))
                            .isInstanceOf(com.fasterxml.jackson.databind.JsonMappingException.class)
                            .hasMessageContaining("'id' must be a 64-bit whole number");
                });
    }
}
