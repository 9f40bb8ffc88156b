package dev.idgen.forms.publicid;

import dev.idgen.core.IdArguments;
import dev.idgen.core.InvalidArgumentException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.bouncycastle.crypto.engines.AESEngine;
import org.bouncycastle.crypto.fpe.FPEFF1Engine;
import org.bouncycastle.crypto.params.FPEParameters;
import org.bouncycastle.crypto.params.KeyParameter;

/**
 * Turns internal IDs into public IDs that reveal nothing (not the time, not the order, not how many were issued) and
 * back. A keyed permutation, not an encoding: without the key, a public ID says nothing about its ID, and adjacent
 * IDs give unrelated strings.
 *
 * <p><b>Cipher.</b> NIST SP 800-38G FF1 format-preserving encryption with AES (Bouncy Castle's {@code FPEFF1Engine}),
 * radix 256, over a 12-byte block: the ID as 8 big-endian bytes, then 4 check bytes of zero. FF1 is a keyed
 * permutation of all 2^96 blocks, so every string of the right shape decrypts to some block; the check bytes are what
 * tells a real public ID from a made-up or altered one: any other string decrypts to an unrelated, effectively random
 * block whose 4 check bytes are all zero with probability 2^-32, so a forger has one chance in about 4.3 billion per
 * guess of getting an ID accepted at all (and then a random one, not one they chose).
 *
 * <p><b>Tweak.</b> FF1's tweak is the generator's name in UTF-8, a zero byte, and the key version: the same ID of
 * another generator, or under another key version, encrypts to an unrelated string, and a public ID of one generator
 * fails the check of another even when both share a key. The tweak must stay fixed for as long as the public IDs are
 * in use, even if the generator is renamed.
 *
 * <p><b>Text.</b> 18 characters of {@code [0-9A-Za-z]}, safe in URLs and file names without escaping: the key version
 * as one Base62 digit (0 to 61), then the 12 encrypted bytes as an unsigned 96-bit number in 17 Base62 digits, most
 * significant first, zero-padded (62^17 is the smallest power of 62 above 2^96). Digits are {@code 0-9}, then
 * {@code A-Z}, then {@code a-z}.
 *
 * <p><b>Key rotation.</b> Configure several key versions; IDs are encoded under the {@linkplain
 * Builder#currentVersion(int) current} one and decoded under the version their first character names, so IDs
 * published under an old key keep working while new ones use the new key. Drop a version only when none of its IDs
 * need to be read any more.
 *
 * <p><b>Thread safety.</b> Bouncy Castle's engines are not thread-safe. Each key version keeps a small lock-free pool
 * (a {@link ConcurrentLinkedQueue}) of initialised engine pairs: a call takes a pair, or makes one when none is idle,
 * and gives it back, keeping at most twice the processor count idle. A pool rather than a {@link ThreadLocal}: with
 * virtual threads, per-thread engines would set up the AES key schedule for every thread and live as long as it. One
 * encode or decode costs a few microseconds (FF1 runs ten AES-CBC-MAC rounds on {@link java.math.BigInteger}s).
 */
public final class PublicIdCodec {

    /** The length of every public ID. */
    public static final int LENGTH = 18;

    /** The largest key version: one Base62 digit. */
    public static final int MAX_VERSION = 61;

    private static final String ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

    private static final int RADIX = 62;

    /** 62^17 > 2^96 > 62^16. */
    private static final int DIGITS = LENGTH - 1;

    /** 8 bytes of ID and 4 check bytes. */
    private static final int BLOCK = 12;

    /** The most characters of a rejected text a message repeats. */
    private static final int SHOWN = 40;

    private static final int MAX_IDLE = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());

    /** Digit value of each ASCII character, -1 when it is not a Base62 digit. */
    private static final byte[] DIGIT_OF = new byte[128];

    static {
        Arrays.fill(DIGIT_OF, (byte) -1);
        for (int i = 0; i < RADIX; i++) {
            DIGIT_OF[ALPHABET.charAt(i)] = (byte) i;
        }
    }

    private final String tweak;
    private final int currentVersion;
    /** Indexed by version; null where a version is not configured. */
    private final KeyVersion[] versions;

    private PublicIdCodec(String tweak, int currentVersion, KeyVersion[] versions) {
        this.tweak = tweak;
        this.currentVersion = currentVersion;
        this.versions = versions;
    }

    /**
     * @return a builder; set the tweak (the generator's name) and at least one key
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Reads an AES key from configuration text.
     *
     * @param version the key version it is for, named in the messages
     * @param base64 the key in Base64, standard ({@code +/}) or URL-safe ({@code -_}), padded or not; whitespace
     *        around it is ignored
     * @return the key's bytes: 16, 24 or 32 of them
     * @throws InvalidArgumentException (argument {@code key}) when the text is not Base64 or not an AES key length; the
     *         message names the version, never the key
     */
    public static byte[] parseKey(int version, String base64) {
        if (base64 == null || base64.isBlank()) {
            throw new InvalidArgumentException(
                    "key",
                    null,
                    "key version " + version + " is empty: expected an AES" + " key of 16, 24 or 32 bytes in Base64");
        }
        String text = base64.strip();
        boolean urlSafe = text.indexOf('-') >= 0 || text.indexOf('_') >= 0;
        byte[] key;
        try {
            key = (urlSafe ? Base64.getUrlDecoder() : Base64.getDecoder()).decode(text);
        } catch (IllegalArgumentException e) {
            // The decoder's message may quote a character of the key: leave it out.
            throw new InvalidArgumentException(
                    "key",
                    null,
                    "key version " + version + " is not valid Base64"
                            + " (standard or URL-safe, one or the other): expected an AES key of 16, 24 or 32 bytes");
        }
        checkKeyLength(version, key);
        return key;
    }

    /**
     * The public ID of an internal ID, under the current key version.
     *
     * @param id a positive ID
     * @return 18 characters of {@code [0-9A-Za-z]}
     * @throws InvalidArgumentException (argument {@code id}) when the ID is not positive
     */
    public String encode(long id) {
        IdArguments.checkId(id);
        byte[] block = new byte[BLOCK];
        for (int i = 7; i >= 0; i--) {
            block[i] = (byte) id;
            id >>>= 8;
        }
        KeyVersion version = versions[currentVersion];
        Engines engines = version.borrow();
        try {
            engines.encrypt.processBlock(block, 0, BLOCK, block, 0);
        } finally {
            version.release(engines);
        }
        return toText(currentVersion, block);
    }

    /**
     * The internal ID of a public ID.
     *
     * @param text a public ID of this codec, under any configured key version
     * @return the positive ID it was made from
     * @throws InvalidArgumentException (argument {@code id}) when the text has the wrong length, a character outside
     *         {@code [0-9A-Za-z]}, an unknown key version, or fails the integrity check (altered, or made under another
     *         key or tweak); never a wrong ID, but for the 2^-32 chance described in the class comment
     */
    public long decode(String text) {
        int versionNumber = versionOf(text);
        KeyVersion version = versionNumber < versions.length ? versions[versionNumber] : null;
        if (version == null) {
            throw new InvalidArgumentException(
                    "id",
                    text,
                    "public id '" + text + "' is under key version " + versionNumber
                            + ", which is not configured here");
        }
        byte[] block = fromDigits(text);
        Engines engines = version.borrow();
        try {
            engines.decrypt.processBlock(block, 0, BLOCK, block, 0);
        } finally {
            version.release(engines);
        }
        long id = 0;
        for (int i = 0; i < 8; i++) {
            id = (id << 8) | (block[i] & 0xFF);
        }
        int check = block[8] | block[9] | block[10] | block[11];
        // A non-positive ID with good check bytes was never encoded: only a forgery can produce it.
        if (check != 0 || id <= 0) {
            throw new InvalidArgumentException(
                    "id",
                    text,
                    "public id '" + text + "' failed its integrity check: it"
                            + " was altered, or made under another key or for another generator");
        }
        return id;
    }

    /**
     * The key version a public ID names in its first character, whether or not it is configured here: useful to find
     * IDs still under a key about to be retired.
     *
     * @param text a public ID
     * @return from 0 to {@value #MAX_VERSION}
     * @throws InvalidArgumentException (argument {@code id}) when the text has the wrong length or a character outside
     *         {@code [0-9A-Za-z]}
     */
    public int versionOf(String text) {
        if (text == null) {
            throw new InvalidArgumentException(
                    "id", null, "id must be a public ID of " + LENGTH + " characters, but" + " was null");
        }
        if (text.length() != LENGTH) {
            throw new InvalidArgumentException(
                    "id",
                    text,
                    "public id must be " + LENGTH + " characters (a key"
                            + " version and " + DIGITS + " Base62 digits), but '" + shown(text) + "' has "
                            + text.length()
                            + (text.length() < LENGTH ? ": truncated?" : ""));
        }
        for (int i = 0; i < LENGTH; i++) {
            char c = text.charAt(i);
            if (c >= 128 || DIGIT_OF[c] < 0) {
                throw new InvalidArgumentException(
                        "id",
                        text,
                        "public id '" + shown(text) + "' has '" + c + "' at position " + i
                                + ", which is not a Base62 character [0-9A-Za-z]");
            }
        }
        return DIGIT_OF[text.charAt(0)];
    }

    /**
     * @return the key version new public IDs are encoded under
     */
    public int currentVersion() {
        return currentVersion;
    }

    /**
     * @return the configured key versions, in increasing order
     */
    public List<Integer> versions() {
        List<Integer> list = new ArrayList<>();
        for (int v = 0; v < versions.length; v++) {
            if (versions[v] != null) {
                list.add(v);
            }
        }
        return List.copyOf(list);
    }

    /**
     * @return the tweak, normally the generator's name
     */
    public String tweak() {
        return tweak;
    }

    /** Never the keys. */
    @Override
    public String toString() {
        return "PublicIdCodec[tweak=" + tweak + ", versions=" + versions() + ", currentVersion=" + currentVersion + "]";
    }

    private static String toText(int version, byte[] block) {
        // The 96-bit number as three unsigned 32-bit limbs, most significant first, divided by 62 digit by digit.
        long[] limbs = new long[3];
        for (int i = 0; i < BLOCK; i++) {
            limbs[i / 4] = (limbs[i / 4] << 8) | (block[i] & 0xFF);
        }
        char[] text = new char[LENGTH];
        text[0] = ALPHABET.charAt(version);
        for (int position = LENGTH - 1; position >= 1; position--) {
            long remainder = 0;
            for (int i = 0; i < 3; i++) {
                long current = (remainder << 32) | limbs[i];
                limbs[i] = current / RADIX;
                remainder = current % RADIX;
            }
            text[position] = ALPHABET.charAt((int) remainder);
        }
        return new String(text);
    }

    /** The 12 bytes of a text whose characters {@link #versionOf} checked. */
    private static byte[] fromDigits(String text) {
        long[] limbs = new long[3];
        for (int position = 1; position < LENGTH; position++) {
            long carry = DIGIT_OF[text.charAt(position)];
            for (int i = 2; i >= 0; i--) {
                long current = limbs[i] * RADIX + carry;
                limbs[i] = current & 0xFFFF_FFFFL;
                carry = current >>> 32;
            }
            if (carry != 0) {
                // 17 digits reach 62^17 - 1, above 2^96 - 1: no encryption gives such a number.
                throw new InvalidArgumentException(
                        "id",
                        text,
                        "public id '" + text + "' failed its integrity check:"
                                + " its digits are above the largest public ID");
            }
        }
        byte[] block = new byte[BLOCK];
        for (int i = 0; i < BLOCK; i++) {
            block[i] = (byte) (limbs[i / 4] >>> (24 - 8 * (i % 4)));
        }
        return block;
    }

    private static String shown(String text) {
        return text.length() > SHOWN ? text.substring(0, SHOWN) + "..." : text;
    }

    private static void checkKeyLength(int version, byte[] key) {
        if (key.length != 16 && key.length != 24 && key.length != 32) {
            throw new InvalidArgumentException(
                    "key",
                    null,
                    "key version " + version + " must be 16, 24 or 32 bytes"
                            + " (AES-128, AES-192 or AES-256), but has " + key.length);
        }
    }

    /** One key version: its FF1 parameters and its pool of idle engines. */
    private static final class KeyVersion {

        private final FPEParameters parameters;
        private final ConcurrentLinkedQueue<Engines> idle = new ConcurrentLinkedQueue<>();
        /** About how many engines are idle; races only make the bound approximate. */
        private final AtomicInteger idleCount = new AtomicInteger();

        KeyVersion(int version, byte[] key, String tweak) {
            byte[] name = tweak.getBytes(StandardCharsets.UTF_8);
            byte[] tweakBytes = new byte[name.length + 2];
            System.arraycopy(name, 0, tweakBytes, 0, name.length);
            // tweakBytes[name.length] stays 0, a separator; the version is always the last byte, so the encoding of
            // (name, version) is one-to-one.
            tweakBytes[name.length + 1] = (byte) version;
            this.parameters = new FPEParameters(new KeyParameter(key), 256, tweakBytes);
            release(new Engines(parameters)); // fails fast here, not on first use, if FF1 is unavailable
        }

        Engines borrow() {
            Engines engines = idle.poll();
            if (engines == null) {
                return new Engines(parameters);
            }
            idleCount.decrementAndGet();
            return engines;
        }

        void release(Engines engines) {
            if (idleCount.incrementAndGet() <= MAX_IDLE) {
                idle.offer(engines);
            } else {
                idleCount.decrementAndGet();
            }
        }
    }

    /** An FF1 engine for each direction: init() sets the direction and redoes the AES key schedule. */
    private static final class Engines {

        final FPEFF1Engine encrypt;
        final FPEFF1Engine decrypt;

        Engines(FPEParameters parameters) {
            encrypt = new FPEFF1Engine(AESEngine.newInstance());
            encrypt.init(true, parameters);
            decrypt = new FPEFF1Engine(AESEngine.newInstance());
            decrypt.init(false, parameters);
        }
    }

    /**
     * Builds a {@link PublicIdCodec}.
     */
    public static final class Builder {

        private final List<Integer> keyVersions = new ArrayList<>();
        private final List<byte[]> keys = new ArrayList<>();
        private Integer currentVersion;
        private String tweak;

        private Builder() {}

        /**
         * Adds a key version.
         *
         * @param version from 0 to {@value PublicIdCodec#MAX_VERSION}, once each
         * @param key an AES key of 16, 24 or 32 bytes (copied); {@link #parseKey} reads one from configuration
         * @return this builder
         */
        public Builder key(int version, byte[] key) {
            keyVersions.add(version);
            keys.add(key == null ? null : key.clone());
            return this;
        }

        /**
         * @param currentVersion the key version new public IDs are encoded under; by default the highest configured
         * @return this builder
         */
        public Builder currentVersion(int currentVersion) {
            this.currentVersion = currentVersion;
            return this;
        }

        /**
         * @param generatorName the generator's name, FF1's tweak: fixed for the life of the public IDs
         * @return this builder
         */
        public Builder tweak(String generatorName) {
            this.tweak = generatorName;
            return this;
        }

        /**
         * @return the codec
         * @throws InvalidArgumentException naming the first setting that breaks its rule: {@code tweak},
         *         {@code keyVersion}, {@code key} or {@code currentVersion}
         */
        public PublicIdCodec build() {
            if (tweak == null || tweak.isEmpty()) {
                throw new InvalidArgumentException("tweak", tweak, "tweak must be set to the generator's name");
            }
            if (keys.isEmpty()) {
                throw new InvalidArgumentException("key", null, "at least one key version must be set");
            }
            KeyVersion[] versions = new KeyVersion[MAX_VERSION + 1];
            int highest = -1;
            for (int i = 0; i < keys.size(); i++) {
                int version = keyVersions.get(i);
                if (version < 0 || version > MAX_VERSION) {
                    throw new InvalidArgumentException(
                            "keyVersion",
                            version,
                            "key version must be between 0 and " + MAX_VERSION + " (one Base62 digit), but was "
                                    + version);
                }
                if (versions[version] != null) {
                    throw new InvalidArgumentException(
                            "keyVersion", version, "key version " + version + " is set twice");
                }
                byte[] key = keys.get(i);
                if (key == null) {
                    throw new InvalidArgumentException("key", null, "key version " + version + " has no key");
                }
                checkKeyLength(version, key);
                versions[version] = new KeyVersion(version, key, tweak);
                highest = Math.max(highest, version);
            }
            int current = currentVersion == null ? highest : currentVersion;
            if (current < 0 || current > MAX_VERSION || versions[current] == null) {
                StringJoiner configured = new StringJoiner(", ");
                for (int v = 0; v <= MAX_VERSION; v++) {
                    if (versions[v] != null) {
                        configured.add(Integer.toString(v));
                    }
                }
                throw new InvalidArgumentException(
                        "currentVersion",
                        current,
                        "currentVersion must be a configured" + " key version (" + configured + "), but was "
                                + current);
            }
            return new PublicIdCodec(tweak, current, versions);
        }
    }
}
