/**
 * What a backend implements to plug into the core: worker id assigners, leases and lease stores.
 */
package dev.idgen.core.spi;
