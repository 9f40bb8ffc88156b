/**
 * Entity IDs: {@link dev.idgen.spring.IdgenId} on an entity's ID field, and the hooks that fill it from the named
 * generator before the entity is saved (Hibernate's {@code IdgenIdGenerator}, Spring Data JDBC's
 * {@code IdgenIdBeforeConvertCallback}, MyBatis's {@code IdgenIdInterceptor}). The starter's
 * {@code autoconfigure.entity} package registers whichever of them the class path allows.
 */
package dev.idgen.spring;
