/**
 * JSON for {@link IdgenId @IdgenId} longs: written as strings and read from a string or a number,
 * because JavaScript's numbers hold integers exactly only up to 2^53. {@link IdgenJacksonModule}
 * is for Jackson 3 ({@code tools.jackson}), {@link IdgenJackson2Module} for Jackson 2
 * ({@code com.fasterxml.jackson}); Spring Boot registers each one that is on the classpath.
 */
package dev.idgen.spring.jackson;

import dev.idgen.spring.IdgenId;
