/**
 * idgen's stores on etcd.
 */
package dev.idgen.etcd;
