/**
 * idgen on etcd: the client, the segment and worker id lease stores, and their health.
 */
package dev.idgen.spring.boot.autoconfigure.etcd;
