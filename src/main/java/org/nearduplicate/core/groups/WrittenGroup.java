package org.nearduplicate.core.groups;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * What a document's group fields hold, as 64 bits: the write-back compares it with what it would write and skips a
 * member already right, without reading the document (otherwise a re-run sends every member as an update that turns out
 * a noop). The first 8 bytes of SHA-256 over the group value and the distance: two different states agree by chance with
 * probability 2^-64 per member, so a member is left with a stale group about once in 10^19 re-runs of a billion
 * documents. Not thread-safe: one per pass.
 */
public final class WrittenGroup {
    /** A document whose fields hold no single group value and single distance: always written. */
    public static final long UNKNOWN = 0;

    private final MessageDigest digest;

    public WrittenGroup() {
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /** The state of a document holding {@code group} (UTF-8 bytes) and {@code distance}; never {@link #UNKNOWN}. */
    public long state(byte[] group, int offset, int length, long distance) {
        digest.reset();
        digest.update(group, offset, length);
        for (int b = 0; b < Long.BYTES; b++) {
            digest.update((byte) (distance >>> (8 * b)));
        }
        byte[] hash = digest.digest();
        long state = 0;
        for (int b = 0; b < Long.BYTES; b++) {
            state = state << 8 | (hash[b] & 0xFF);
        }
        return state == UNKNOWN ? 1 : state;
    }

    /** The state a write of {@code group} and {@code distance} leaves. */
    public long state(String group, long distance) {
        byte[] bytes = group.getBytes(StandardCharsets.UTF_8);
        return state(bytes, 0, bytes.length, distance);
    }

    /** Whether {@code member}'s fields already hold {@code group} and its distance (read with it; unknown: no). */
    public boolean holds(GroupMembers.Member member, String group) {
        return member.written() != UNKNOWN && member.written() == state(group, member.distance());
    }
}
