package org.nearduplicate.core.sketch;

import java.util.Base64;

/** The wire form of a signature: its values as big-endian 32-bit ints, in base64 (standard alphabet, padded). */
public final class MinHashSignatures {
    private MinHashSignatures() {}

    public static byte[] toBytes(int[] signature) {
        byte[] b = new byte[signature.length * 4];
        for (int i = 0; i < signature.length; i++) {
            int v = signature[i];
            b[4 * i] = (byte) (v >>> 24);
            b[4 * i + 1] = (byte) (v >>> 16);
            b[4 * i + 2] = (byte) (v >>> 8);
            b[4 * i + 3] = (byte) v;
        }
        return b;
    }

    public static int[] fromBytes(byte[] bytes, int offset, int length) {
        if (length == 0 || length % 4 != 0) {
            throw new IllegalArgumentException("a minhash signature has a positive multiple of 4 bytes, got " + length);
        }
        int[] sig = new int[length / 4];
        for (int i = 0; i < sig.length; i++) {
            int p = offset + 4 * i;
            sig[i] = ((bytes[p] & 0xFF) << 24) | ((bytes[p + 1] & 0xFF) << 16) | ((bytes[p + 2] & 0xFF) << 8) | (bytes[p + 3] & 0xFF);
        }
        return sig;
    }

    public static String toBase64(int[] signature) {
        return Base64.getEncoder().encodeToString(toBytes(signature));
    }

    /** @throws IllegalArgumentException for malformed base64 or a length that is not a positive multiple of 4 bytes */
    public static int[] fromBase64(String s) {
        if (s == null) throw new IllegalArgumentException("signature must not be null");
        byte[] b;
        try {
            b = Base64.getDecoder().decode(s.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid minhash signature: not base64 (" + e.getMessage() + ")", e);
        }
        return fromBytes(b, 0, b.length);
    }
}
