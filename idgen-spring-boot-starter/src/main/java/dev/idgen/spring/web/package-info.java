/**
 * idgen's exceptions as HTTP answers ({@code application/problem+json}, RFC 9457) in Spring MVC and WebFlux
 * applications: {@link dev.idgen.spring.web.IdgenProblemHandler}, which the starter's {@code autoconfigure.web}
 * package registers in a web application, and {@link dev.idgen.spring.web.IdgenProblems}, the problems it answers.
 */
package dev.idgen.spring.web;
