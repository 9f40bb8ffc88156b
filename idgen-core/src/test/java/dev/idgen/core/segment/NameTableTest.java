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

    @Test
    void insertsCopyEachNameAFewTimesAtMostNotOncePerLaterInsert() {
        // Counted work, not time: copying the whole table per insert copies n^2 / 2 names for n inserts.
        NameTable<Integer> table = new NameTable<>();
        int n = 200_000;
        for (int i = 0; i < n; i++) {
            table.putIfAbsent("name-" + i, i);
            assertThat(table.copied())
                    .as("names copied after %d inserts", i + 1)
                    .isLessThanOrEqualTo(2L * (i + 1));
        }
        assertThat(table.size()).isEqualTo(n);
        assertThat(table.get("name-0")).isEqualTo(0);
        assertThat(table.get("name-" + (n - 1))).isEqualTo(n - 1);
    }

    @Test
    void forgottenNamesLeaveTheTableAndItStaysSmallUnderChurn() {
        NameTable<Integer> table = new NameTable<>();
        int ops = 100_000;
        for (int i = 0; i < ops; i++) {
            table.putIfAbsent("day-" + i, i);
            if (i >= 10) {
                assertThat(table.remove("day-" + (i - 10))).isTrue();
            }
        }
        assertThat(table.size()).isEqualTo(10);
        assertThat(table.capacity()).as("pairs for 10 live names").isLessThanOrEqualTo(64);
        assertThat(table.copied()).isLessThanOrEqualTo(2L * ops);
        assertThat(table.get("day-" + (ops - 11))).isNull();
        assertThat(table.remove("day-" + (ops - 11))).isFalse();
        assertThat(table.get(new String("day-" + (ops - 1)))).isEqualTo(ops - 1);
        // A name forgotten and put again is found with its new value.
        table.putIfAbsent("day-0", -1);
        assertThat(table.get("day-0")).isEqualTo(-1);
    }
}
