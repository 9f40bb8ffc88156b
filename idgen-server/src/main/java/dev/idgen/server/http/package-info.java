/**
 * The server over HTTP: {@code /ids} as the sample serves them, {@code /blocks}, and every refusal as problem+json;
 * when enabled, Leaf's and Tinyid's APIs with their own answers ({@code idgen.server.compat.*}).
 */
package dev.idgen.server.http;
