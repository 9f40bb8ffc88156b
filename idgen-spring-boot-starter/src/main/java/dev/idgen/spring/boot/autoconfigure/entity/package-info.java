/**
 * Entity IDs: {@code @IdgenId} fields filled in by Hibernate, Spring Data JDBC, MyBatis or Spring Data R2DBC, each when its library is
 * present.
 */
package dev.idgen.spring.boot.autoconfigure.entity;
