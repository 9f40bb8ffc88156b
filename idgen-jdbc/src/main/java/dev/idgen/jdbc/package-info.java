/**
 * JDBC backends: segment and worker id lease stores on MySQL/MariaDB, PostgreSQL and H2, and Flickr-style ticket
 * servers ({@link dev.idgen.jdbc.TicketIdService}).
 */
package dev.idgen.jdbc;
