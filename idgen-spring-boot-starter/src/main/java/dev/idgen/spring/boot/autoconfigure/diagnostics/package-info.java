/**
 * Start-up failures and how they are reported: {@link IdgenStartupException}, invalid property values, and the
 * failure analyzers that turn them into Spring Boot's failure report.
 */
package dev.idgen.spring.boot.autoconfigure.diagnostics;
