/**
 * idgen on idgen servers ({@code idgen.segment.store=remote}): the one client store every generator that uses it
 * shares, its health and its meters.
 */
package dev.idgen.spring.boot.autoconfigure.remote;
