/**
 * Segment (Leaf-style) IDs: ranges taken from a {@link dev.idgen.core.segment.SegmentStore} and served from memory,
 * the next range loaded before the current one runs out ({@link dev.idgen.core.segment.SegmentIdService}).
 */
package dev.idgen.core.segment;
