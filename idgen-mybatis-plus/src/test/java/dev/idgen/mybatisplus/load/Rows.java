package dev.idgen.mybatisplus.load;

import com.baomidou.mybatisplus.annotation.IdType;
import com.baomidou.mybatisplus.annotation.TableId;
import com.baomidou.mybatisplus.annotation.TableName;
import com.baomidou.mybatisplus.core.mapper.BaseMapper;
import com.baomidou.mybatisplus.extension.service.impl.ServiceImpl;
import org.apache.ibatis.annotations.Mapper;

/**
 * One table per strategy, each an entity whose ASSIGN_ID key takes its IDs from the generator named like its table
 * (configured with that strategy), with its mapper and its MyBatis-Plus service (for saveBatch).
 */
final class Rows {

    private Rows() {}

    abstract static class Row {
        @TableId(type = IdType.ASSIGN_ID)
        Long id;

        String item;
    }

    @TableName("idgen_mpl_snowflake")
    static final class SnowflakeRow extends Row {}

    @TableName("idgen_mpl_segment")
    static final class SegmentRow extends Row {}

    @TableName("idgen_mpl_ticket")
    static final class TicketRow extends Row {}

    @TableName("idgen_mpl_redis")
    static final class RedisRow extends Row {}

    @Mapper
    interface SnowflakeMapper extends BaseMapper<SnowflakeRow> {}

    @Mapper
    interface SegmentMapper extends BaseMapper<SegmentRow> {}

    @Mapper
    interface TicketMapper extends BaseMapper<TicketRow> {}

    @Mapper
    interface RedisMapper extends BaseMapper<RedisRow> {}

    static final class SnowflakeService extends ServiceImpl<SnowflakeMapper, SnowflakeRow> {}

    static final class SegmentService extends ServiceImpl<SegmentMapper, SegmentRow> {}

    static final class TicketService extends ServiceImpl<TicketMapper, TicketRow> {}

    static final class RedisService extends ServiceImpl<RedisMapper, RedisRow> {}
}
