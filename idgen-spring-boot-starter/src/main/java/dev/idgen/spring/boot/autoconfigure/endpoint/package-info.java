/**
 * The {@code idgen} Actuator endpoint: what each generator is doing, and what an ID carries.
 */
package dev.idgen.spring.boot.autoconfigure.endpoint;
