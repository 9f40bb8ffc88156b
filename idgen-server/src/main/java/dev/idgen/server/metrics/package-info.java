/** The server's request and block meters, cached by their tags. */
package dev.idgen.server.metrics;
