package dev.idgen.core.form;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.idgen.core.InvalidArgumentException;
import dev.idgen.core.ManualTimeSource;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class FormOnlyIdServiceTest {

    private final IdForm form = UuidV7Generator.builder()
            .timeSource(new ManualTimeSource(Instant.parse("2026-06-01T00:00:00Z")))
            .build()
            .form("order");

    private final FormOnlyIdService service = new FormOnlyIdService(form);

    @Test
    void itsStrategyIsTheFormAndItKeepsTheForm() {
        assertThat(service.strategy()).isEqualTo("uuid-v7");
        assertThat(service.form()).isSameAs(form);
        assertThat(service).hasToString("FormOnlyIdService[uuid-v7]");
    }

    @Test
    void theFormStillIssuesItsOwnIds() {
        String id = service.form().next();
        assertThat(UUID.fromString(id).version()).isEqualTo(7);
    }

    @Test
    void refusesEverySixtyFourBitCallNamingTheGeneratorAndWhereItsIdsComeFrom() {
        for (Runnable call : new Runnable[] {
            () -> service.nextId("order"),
            () -> service.nextIds("order", 3),
            () -> service.decode(42L),
            // At once, not in a future from an executor: there is no call to hand over.
            () -> service.nextIdAsync("order", command -> {
                throw new AssertionError("handed to the executor");
            }),
            () -> service.nextIdsAsync("order", 3, command -> {
                throw new AssertionError("handed to the executor");
            })
        }) {
            assertThatThrownBy(call::run)
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("generator 'order' issues uuid-v7 IDs, which are not 64-bit numbers")
                    .hasMessageContaining("IdForms.form(\"order\")");
        }
    }

    @Test
    void needsAForm() {
        assertThatThrownBy(() -> new FormOnlyIdService(null)).isInstanceOf(IllegalArgumentException.class);
    }
}
