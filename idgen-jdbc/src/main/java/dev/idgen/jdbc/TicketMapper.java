package dev.idgen.jdbc;

import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Options;
import org.apache.ibatis.annotations.Param;
import org.apache.ibatis.annotations.Select;
import org.apache.ibatis.annotations.Update;

/**
 * The ticket table's statements (MySQL and MariaDB). {@code ${table}} comes from validated configuration only: each
 * {@link TicketServer} substitutes it once, when its own MyBatis configuration parses these statements, so the
 * {@code table} parameters only document which table a call is for.
 *
 * <p>{@code LAST_INSERT_ID(expr)} stores its value on the connection, so {@link #lastInsertId()} must run on the same
 * connection as {@link #advance}: both run in one session.
 *
 * <p>Each row records the increment (the number of servers) it was written with, and only a server with that
 * increment advances it: a server count changed without migrating the rows would otherwise hand out IDs another
 * server also hands out.
 */
public interface TicketMapper {

    /**
     * Advances the row by {@code count * increment}; a row lock for this one statement, so concurrent clients queue
     * instead of deadlocking as Flickr's {@code REPLACE INTO} does on InnoDB.
     */
    @Update("UPDATE ${table} SET id = LAST_INSERT_ID(id + #{count} * #{increment}), update_time = CURRENT_TIMESTAMP(3)"
            + " WHERE name = #{name} AND increment = #{increment}")
    int advance(@Param("table") String table, @Param("name") String name, @Param("count") int count,
            @Param("increment") int increment);

    @Select("SELECT LAST_INSERT_ID()")
    @Options(flushCache = Options.FlushCachePolicy.TRUE, useCache = false)
    long lastInsertId();

    @Select("SELECT increment FROM ${table} WHERE name = #{name}")
    @Options(flushCache = Options.FlushCachePolicy.TRUE, useCache = false)
    Integer incrementOf(@Param("table") String table, @Param("name") String name);

    @Insert("INSERT INTO ${table} (name, id, increment, update_time)"
            + " VALUES (#{name}, #{offset}, #{increment}, CURRENT_TIMESTAMP(3))")
    int insert(@Param("table") String table, @Param("name") String name, @Param("offset") long offset,
            @Param("increment") int increment);

    /** Administrative reset: the name's next ID starts over from {@code offset + increment}. */
    @Update("UPDATE ${table} SET id = #{offset}, update_time = CURRENT_TIMESTAMP(3)"
            + " WHERE name = #{name} AND increment = #{increment}")
    int reset(@Param("table") String table, @Param("name") String name, @Param("offset") long offset,
            @Param("increment") int increment);
}
