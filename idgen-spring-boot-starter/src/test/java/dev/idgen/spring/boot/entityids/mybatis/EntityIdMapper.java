package dev.idgen.spring.boot.entityids.mybatis;

import java.util.List;
import org.apache.ibatis.annotations.Insert;
import org.apache.ibatis.annotations.Mapper;
import org.apache.ibatis.annotations.Param;

/** Inserts with every parameter shape MyBatis passes: an entity, a list, an array, named parameters. */
@Mapper
public interface EntityIdMapper {

    String ORDER_ROWS = "INSERT INTO idgen_emb_order (id, item) VALUES <foreach collection='";

    String ROW = "' item='o' separator=','>(#{o.id}, #{o.item})</foreach>";

    @Insert("INSERT INTO idgen_emb_order (id, item) VALUES (#{id}, #{item})")
    int insert(MyBatisOrder order);

    /** A single collection parameter: MyBatis names it {@code list} and {@code collection}. */
    @Insert("<script>" + ORDER_ROWS + "list" + ROW + "</script>")
    int insertList(List<MyBatisOrder> orders);

    /** A single array parameter: MyBatis names it {@code array}. */
    @Insert("<script>" + ORDER_ROWS + "array" + ROW + "</script>")
    int insertArray(MyBatisOrder[] orders);

    /** Several parameters: MyBatis passes a map of their names (and param1, param2). */
    @Insert("<script>" + ORDER_ROWS + "orders" + ROW + "</script>")
    int insertNamed(@Param("orders") List<MyBatisOrder> orders, @Param("batch") String batch);

    @Insert("INSERT INTO idgen_emb_ticket (id, title) VALUES (#{id}, #{title})")
    int insertTicket(MyBatisTicket ticket);

    @Insert("INSERT INTO idgen_emb_line (id, quantity) VALUES (#{line.id}, #{line.quantity})")
    int insertLine(@Param("line") MyBatisLine line);
}
