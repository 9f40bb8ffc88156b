/**
 * Registers {@link dev.idgen.spring.web.IdgenProblemHandler} in Spring MVC and WebFlux applications, and its
 * {@code idgen.web.*} settings.
 */
package dev.idgen.spring.boot.autoconfigure.web;
