/** Who may call the server: clients found by their token's hash, what names each may use, and their rate limits. */
package dev.idgen.server.access;
