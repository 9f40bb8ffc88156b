package dev.idgen.mybatisplus;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Which idgen generator MyBatis-Plus's {@code ASSIGN_ID} takes an entity's ID from, where the table name is not the
 * wanted one. Properties because a deployment may move tables onto another generator without a rebuild.
 */
@ConfigurationProperties("idgen.mybatis-plus")
public final class IdgenMybatisPlusProperties {

    /**
     * Generator per table, for MyBatis-Plus's ASSIGN_ID: 'idgen.mybatis-plus.generators.<table>=<generator>'. A table
     * not listed takes the generator named like the table; @IdgenId("name") on the key field wins over both. Table
     * names are matched ignoring case; one with a dot needs brackets ('generators[app.orders]=orders').
     */
    private Map<String, String> generators = new LinkedHashMap<>();

    /**
     * Generator of the IDs asked for without a MyBatis-Plus entity: IdWorker.getId() and IdWorker.getIdStr(), which
     * MyBatis-Plus points at idgen.
     */
    private String defaultGenerator = "mybatis-plus";

    public Map<String, String> getGenerators() {
        return generators;
    }

    public void setGenerators(Map<String, String> generators) {
        this.generators = generators;
    }

    public String getDefaultGenerator() {
        return defaultGenerator;
    }

    public void setDefaultGenerator(String defaultGenerator) {
        this.defaultGenerator = defaultGenerator;
    }
}
