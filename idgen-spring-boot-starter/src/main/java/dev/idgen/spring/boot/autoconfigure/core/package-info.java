/**
 * The core of the starter, below every strategy and store: the generators' definitions and the settings every
 * generator has ({@code IdgenGenerators}, {@code IdgenProperties}), the sections a strategy or a store declares for
 * its own settings ({@code IdgenSettings}), the conditions and the SPIs the strategies implement. It names no strategy
 * or store: they use it, and the auto-configuration above them lists them.
 */
package dev.idgen.spring.boot.autoconfigure.core;
