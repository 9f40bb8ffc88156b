package dev.idgen.core.segment;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NameTableTest {

    @Test
    void findsEveryNamePutThroughGrowthByIdentityAndByEquality() {
        NameTable<Integer> table = new NameTable<>();
        for (int i = 0; i < 5000; i++) {
            table.putIfAbsent("name-" + i, i);
        }
        for (int i = 0; i < 5000; i++) {
            // A new String each time: found by equals, not only by identity.
            assertThat(table.get(new String("name-" + i))).isEqualTo(i);
        }
        assertThat(table.get("name-5000")).isNull();
    }

    @Test
    void keepsNamesWithEqualHashesApartAndTheFirstValueOfAName() {
        NameTable<String> table = new NameTable<>();
        assertThat("Aa".hashCode()).isEqualTo("BB".hashCode());
        table.putIfAbsent("Aa", "first");
        table.putIfAbsent("BB", "second");
        table.putIfAbsent("Aa", "replaced?");
        assertThat(table.get("Aa")).isEqualTo("first");
        assertThat(table.get("BB")).isEqualTo("second");
        assertThat(table.get("AaBB")).isNull();
    }
}
