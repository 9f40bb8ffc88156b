package dev.idgen.mybatisplus.unit;

import com.baomidou.mybatisplus.annotation.IdType;
import com.baomidou.mybatisplus.annotation.TableId;
import com.baomidou.mybatisplus.annotation.TableName;
import com.baomidou.mybatisplus.core.mapper.BaseMapper;
import dev.idgen.spring.IdgenId;
import org.apache.ibatis.annotations.Mapper;

/** The unit tests' entities and mappers, one per kind of key. */
final class Entities {

    private Entities() {}

    /** ASSIGN_UUID: a 32-digit UUIDv7. */
    @TableName("mp_ticket")
    static class Ticket {
        @TableId(type = IdType.ASSIGN_UUID)
        String id;

        String title;

        Ticket() {}

        Ticket(String id, String title) {
            this.id = id;
            this.title = title;
        }
    }

    /** A String key with @IdgenId: the generator's string form, filled in by idgen before MyBatis-Plus looks. */
    @TableName("mp_code")
    static class Code {
        @TableId(type = IdType.ASSIGN_ID)
        @IdgenId("mp_code_form")
        String id;

        String title;
    }

    /** A String key without @IdgenId: MyBatis-Plus writes the 64-bit ID in decimal. */
    @TableName("mp_plain")
    static class Plain {
        @TableId(type = IdType.ASSIGN_ID)
        String id;

        String title;
    }

    /** An Integer key cannot hold a 64-bit ID: refused. */
    @TableName("mp_small")
    static class Small {
        @TableId(type = IdType.ASSIGN_ID)
        Integer id;

        String title;
    }

    /** A table name that is no generator name. */
    @TableName("mp$odd")
    static class Odd {
        @TableId(type = IdType.ASSIGN_ID)
        Long id;
    }

    @Mapper
    interface TicketMapper extends BaseMapper<Ticket> {}

    @Mapper
    interface CodeMapper extends BaseMapper<Code> {}

    @Mapper
    interface PlainMapper extends BaseMapper<Plain> {}

    @Mapper
    interface SmallMapper extends BaseMapper<Small> {}

    @Mapper
    interface OddMapper extends BaseMapper<Odd> {}
}
