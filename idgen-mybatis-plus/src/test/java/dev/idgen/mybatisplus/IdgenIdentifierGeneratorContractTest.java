package dev.idgen.mybatisplus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.baomidou.mybatisplus.annotation.IdType;
import com.baomidou.mybatisplus.annotation.TableId;
import com.baomidou.mybatisplus.annotation.TableName;
import com.baomidou.mybatisplus.core.MybatisConfiguration;
import com.baomidou.mybatisplus.core.MybatisMapperBuilderAssistant;
import com.baomidou.mybatisplus.core.metadata.TableInfoHelper;
import dev.idgen.core.DecodedId;
import dev.idgen.core.IdService;
import dev.idgen.core.form.UuidV7Generator;
import dev.idgen.spring.IdgenId;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What MyBatis-Plus gets from {@link IdgenIdentifierGenerator}, without a database: the generator each entity's
 * ASSIGN_ID takes its IDs from, the keys refused, and ASSIGN_UUID's form. The entities' table info is built as
 * MyBatis-Plus builds it when it reads a mapper.
 */
class IdgenIdentifierGeneratorContractTest {

    /** Hands out 1, 2, 3, ... and remembers the names asked for: what the generator passes to idgen. */
    private final List<String> asked = new ArrayList<>();

    private final IdService ids = new IdService() {
        private long next;

        @Override
        public String strategy() {
            return "test";
        }

        @Override
        public synchronized long nextId(String name) {
            asked.add(name);
            return ++next;
        }

        @Override
        public long[] nextIds(String name, int count) {
            long[] ids = new long[count];
            for (int i = 0; i < count; i++) {
                ids[i] = nextId(name);
            }
            return ids;
        }

        @Override
        public DecodedId decode(long id) {
            throw new UnsupportedOperationException();
        }
    };

    private final IdgenIdentifierGenerator generator =
            new IdgenIdentifierGenerator(ids, Map.of("t_mapped", "mapped_gen"), "mp_default");

    @BeforeAll
    static void readEntities() {
        MybatisConfiguration configuration = new MybatisConfiguration();
        for (Class<?> entity : List.of(
                Named.class,
                Mapped.class,
                Annotated.class,
                Text.class,
                Big.class,
                Decimal.class,
                GenericLong.class,
                Small.class,
                Tiny.class,
                Odd.class)) {
            TableInfoHelper.initTableInfo(new MybatisMapperBuilderAssistant(configuration, entity.getName()), entity);
        }
    }

    @Test
    void theGeneratorIsTheAnnotationsThenThePropertysThenTheTableName() {
        assertThat(generator.nextId(new Named())).isEqualTo(1L);
        assertThat(generator.nextId(new Mapped())).isEqualTo(2L);
        assertThat(generator.nextId(new Annotated())).isEqualTo(3L);
        assertThat(generator.nextId(new Text())).isEqualTo(4L);
        assertThat(generator.nextId(new Big())).isEqualTo(5L);
        assertThat(generator.nextId(new Decimal())).isEqualTo(6L);
        // The field's erased type is Serializable; MyBatis-Plus resolves the key to Long.
        assertThat(generator.nextId(new GenericLong())).isEqualTo(7L);
        assertThat(asked)
                .containsExactly(
                        "t_named", "mapped_gen", "from_annotation", "t_text", "t_big", "t_decimal", "t_generic");
    }

    @Test
    void withoutAnEntityTheDefaultGenerator() {
        generator.nextId(null);
        generator.nextId("not an entity");
        assertThat(asked).containsExactly("mp_default", "mp_default");
    }

    @Test
    void keysThatCannotHoldA64BitIdAreRefusedEveryTime() {
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> generator.nextId(new Small()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage(Small.class.getName() + ".id: an Integer key with IdType.ASSIGN_ID, which"
                            + " MyBatis-Plus would fill with a 64-bit ID cut short; make it a long, Long, String,"
                            + " BigInteger or BigDecimal (or use another IdType)");
        }
        assertThatThrownBy(() -> generator.nextId(new Tiny()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith(Tiny.class.getName() + ".key: an int key");
        assertThat(asked).isEmpty();
    }

    @Test
    void aTableNameThatIsNoGeneratorNameNamesThePropertyToSet() {
        assertThatThrownBy(() -> generator.nextId(new Odd()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("The table name t$odd of " + Odd.class.getName())
                .hasMessageContaining("set idgen.mybatis-plus.generators[t$odd]=<generator>")
                .hasMessageContaining("or put @IdgenId(\"<generator>\") on " + Odd.class.getName() + ".id");
    }

    @Test
    void uuidsAre32LowercaseHexDigitsOfAnOrderedUuidV7() {
        String previous = "";
        for (int i = 0; i < 1_000; i++) {
            String uuid = generator.nextUUID(new Text());
            assertThat(uuid).matches("[0-9a-f]{12}7[0-9a-f]{3}[89ab][0-9a-f]{15}");
            assertThat(uuid).isGreaterThan(previous);
            previous = uuid;
        }
        UUID uuid = UUID.randomUUID();
        assertThat(UuidV7Generator.compactHex(uuid)).isEqualTo(uuid.toString().replace("-", ""));
    }

    @TableName("t_named")
    static class Named {
        @TableId(type = IdType.ASSIGN_ID)
        Long id;
    }

    @TableName("T_MAPPED")
    static class Mapped {
        @TableId(type = IdType.ASSIGN_ID)
        Long id;
    }

    @TableName("t_mapped")
    static class Annotated {
        @TableId(type = IdType.ASSIGN_ID)
        @IdgenId("from_annotation")
        Long id;
    }

    @TableName("t_text")
    static class Text {
        @TableId(type = IdType.ASSIGN_ID)
        String id;
    }

    @TableName("t_big")
    static class Big {
        @TableId(type = IdType.ASSIGN_ID)
        BigInteger id;
    }

    @TableName("t_decimal")
    static class Decimal {
        @TableId(type = IdType.ASSIGN_ID)
        BigDecimal id;
    }

    /** A base entity generic in its key, as many code bases have. */
    abstract static class BaseEntity<K extends Serializable> {
        @TableId(type = IdType.ASSIGN_ID)
        K id;
    }

    @TableName("t_generic")
    static class GenericLong extends BaseEntity<Long> {}

    @TableName("t_small")
    static class Small {
        @TableId(type = IdType.ASSIGN_ID)
        Integer id;
    }

    @TableName("t_tiny")
    static class Tiny {
        @TableId(type = IdType.ASSIGN_ID)
        int key;
    }

    @TableName("t$odd")
    static class Odd {
        @TableId(type = IdType.ASSIGN_ID)
        Long id;
    }
}
