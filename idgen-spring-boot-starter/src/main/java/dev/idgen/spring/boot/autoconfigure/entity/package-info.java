/**
 * Entity IDs: {@code @IdgenId} fields filled in by Hibernate, Spring Data JDBC or MyBatis, each when its library is
 * present.
 */
package dev.idgen.spring.boot.autoconfigure.entity;
