/** The server over HTTP: {@code /ids} as the sample serves them, {@code /blocks}, and every refusal as problem+json. */
package dev.idgen.server.http;
