package dev.idgen.spring.boot.jdbc;

import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Options;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

/**
 * The ticket table's statements (MySQL and MariaDB). {@code ${table}} comes from validated configuration only.
 *
 * <p>{@code LAST_INSERT_ID(expr)} stores its value on the connection, so {@link #lastInsertId()} must run on the same
 * connection as {@link #advance}: both run in one transaction.
 */
public interface TicketMapper {

    /**
     * Advances the row by {@code count * increment}; a row-lock on one name, so concurrent clients queue instead of
     * deadlocking as Flickr's {@code REPLACE INTO} does on InnoDB.
     */
    @Update("UPDATE ${table} SET id = LAST_INSERT_ID(id + #{count} * #{increment}), update_time = CURRENT_TIMESTAMP(3)"
            + " WHERE name = #{name}")
    int advance(@Param("table") String table, @Param("name") String name, @Param("count") int count,
            @Param("increment") int increment);

    @Select("SELECT LAST_INSERT_ID()")
    @Options(flushCache = Options.FlushCachePolicy.TRUE, useCache = false)
    long lastInsertId();

    @Insert("INSERT INTO ${table} (name, id, update_time) VALUES (#{name}, #{offset}, CURRENT_TIMESTAMP(3))")
    int insert(@Param("table") String table, @Param("name") String name, @Param("offset") long offset);

    /** Administrative reset: the next ID of the name starts over from {@code offset + increment}. */
    @Update("UPDATE ${table} SET id = #{offset}, update_time = CURRENT_TIMESTAMP(3) WHERE name = #{name}")
    int reset(@Param("table") String table, @Param("name") String name, @Param("offset") long offset);
}
