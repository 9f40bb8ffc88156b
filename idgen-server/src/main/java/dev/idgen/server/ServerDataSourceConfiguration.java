package dev.idgen.server;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * A {@code DataSource} only when {@code spring.datasource.url} names a database. The server carries JDBC drivers for
 * the strategies that need a database, but no embedded one: Spring Boot would otherwise fail without a URL (a
 * Snowflake server needs none), and an in-memory database would hand out the same segments again after a restart.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "spring.datasource.url")
@Import(DataSourceAutoConfiguration.class)
class ServerDataSourceConfiguration {}
