package dev.idgen.jdbc;

import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Options;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

/**
 * The segment table's statements. {@code ${table}} is substituted from validated configuration only (see
 * {@link SqlIdentifiers}); every value is a bound parameter.
 */
public interface SegmentMapper {

    @Update("UPDATE ${table} SET max_id = max_id + #{step}, step = #{step}, version = version + 1,"
            + " update_time = CURRENT_TIMESTAMP WHERE name = #{name}")
    int advance(@Param("table") String table, @Param("name") String name, @Param("step") long step);

    @Select("SELECT max_id FROM ${table} WHERE name = #{name}")
    @Options(flushCache = Options.FlushCachePolicy.TRUE, useCache = false)
    Long maxId(@Param("table") String table, @Param("name") String name);

    /** PostgreSQL: advance and read back in one statement. */
    @Select("UPDATE ${table} SET max_id = max_id + #{step}, step = #{step}, version = version + 1,"
            + " update_time = CURRENT_TIMESTAMP WHERE name = #{name} RETURNING max_id")
    @Options(flushCache = Options.FlushCachePolicy.TRUE, useCache = false)
    Long advanceReturning(@Param("table") String table, @Param("name") String name, @Param("step") long step);

    @Insert("INSERT INTO ${table} (name, max_id, step, version, update_time)"
            + " VALUES (#{name}, #{initialValue}, 0, 0, CURRENT_TIMESTAMP)")
    int insert(@Param("table") String table, @Param("name") String name, @Param("initialValue") long initialValue);
}
