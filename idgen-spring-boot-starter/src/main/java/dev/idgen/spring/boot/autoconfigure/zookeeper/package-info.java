/**
 * idgen on ZooKeeper: the Curator client, the segment and worker id lease stores, and their health.
 */
package dev.idgen.spring.boot.autoconfigure.zookeeper;
