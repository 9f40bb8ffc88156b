package dev.idgen.core;

/**
 * Readable String IDs: a formatted timestamp, a short business code and a sequence, for example
 * {@code 261121153000123ORD04200017}. Unique as long as the implementation's stated bounds hold; the time part tells
 * when the ID was issued.
 */
public interface ReadableIdService {

    /**
     * @param bizCode a business code of 0 to 4 letters or digits, placed after the time part
     * @return a new ID
     * @throws InvalidArgumentException when {@code bizCode} is malformed
     * @throws StoreUnavailableException when the backing store cannot issue one now
     */
    String nextReadableId(String bizCode);

    /**
     * @param id an ID from {@link #nextReadableId}
     * @return its parts, the time part decoded to an instant
     * @throws InvalidArgumentException when {@code id} is not such an ID
     */
    DecodedId decodeReadable(String id);
}
