package dev.idgen.spring.boot.autoconfigure.usermapper;

import org.apache.ibatis.annotations.Select;

/** An application's own mapper, found by its own {@code @MapperScan}. */
public interface UserMapper {

    @Select("SELECT 42")
    int answer();
}
