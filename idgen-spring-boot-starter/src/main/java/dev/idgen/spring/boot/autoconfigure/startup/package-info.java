/**
 * The start-up log line that says which generators idgen configured.
 */
package dev.idgen.spring.boot.autoconfigure.startup;
