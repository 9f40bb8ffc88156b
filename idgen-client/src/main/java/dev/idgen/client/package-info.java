/**
 * A {@link dev.idgen.core.segment.SegmentStore} that takes blocks of IDs from idgen servers over HTTP
 * ({@link dev.idgen.client.RemoteSegmentStore}): spread round-robin over the servers, a breaker per server, every
 * allocation bounded by one overall timeout.
 */
package dev.idgen.client;
