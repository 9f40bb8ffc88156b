/**
 * idgen's stores on zookeeper.
 */
package dev.idgen.zookeeper;
