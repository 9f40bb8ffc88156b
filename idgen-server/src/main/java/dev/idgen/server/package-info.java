/** The idgen server: IDs and blocks over HTTP and gRPC, its callers authenticated, limited and measured. */
package dev.idgen.server;
