package org.nearduplicate.orchestration.groups;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.nearduplicate.core.groups.GroupMembers;
import org.nearduplicate.core.sketch.Signature;

/**
 * The shards' fingerprints merged: the distinct fingerprints, their units (with signatures: the distinct
 * (fingerprint, signature) pairs) and the units' document counts, trimmed to size, each array reserved.
 */
final class Merged {
    long[] distinct;
    int[] counts;
    int[] unitStart;
    byte[] unitSignatures;
    /** What {@link #distinct} and {@link #unitSignatures} hold reserved, given back by the compaction. */
    long distinctBytes, signatureBytes;
    int n, units;

    /** What the arrays over all units hold reserved. */
    long heldBytes() {
        return distinctBytes + signatureBytes + 4L * units + (unitStart != null ? 4L * unitStart.length : 0);
    }

    static Merged of(List<ShardAnswer> responses, long docs, long shardBytes, boolean signed, Reservation reservation) {
        Merged m = new Merged();
        // one shard's arrays are merged in place (they then hold the distinct fingerprints and the units'
        // signatures: no second copy of either)
        ShardAnswer only = null;
        int nonEmpty = 0;
        for (ShardAnswer r : responses) {
            if (r.fingerprints().length > 0) {
                nonEmpty++;
                only = r;
            }
        }
        boolean inPlace = nonEmpty == 1 && (signed == false || only.signatures() != null);
        if (inPlace) {
            reservation.reserve(4L * docs + (signed ? 4L * (docs + 1) : 0), signed ? "unit counts and starts" : "fingerprint counts");
            m.unitSignatures = only.takeSignatures();
            m.distinct = only.takeFingerprints();
            m.counts = new int[m.distinct.length];
            m.unitStart = signed ? new int[m.distinct.length + 1] : null;
            if (signed) {
                int[] merged = GroupMembers.mergeUnitsInPlace(m.distinct, m.unitSignatures, m.unitStart, m.counts);
                m.n = merged[0];
                m.units = merged[1];
            } else {
                m.n = m.units = GroupMembers.mergeInPlace(m.distinct, m.counts);
            }
            // the shards' answers (the empty ones too) stay reserved: the merged arrays are theirs
            m.signatureBytes = signed ? 16 + (long) Signature.BYTES * docs : 0;
            m.distinctBytes = shardBytes - m.signatureBytes;
        } else {
            long perDoc = signed ? 12 + 4 + Signature.BYTES : 12;
            reservation.reserve(
                perDoc * docs + (signed ? 4 : 0),
                signed ? "distinct fingerprints and signatures" : "distinct fingerprints"
            );
            m.distinct = new long[Math.toIntExact(docs)];
            m.counts = new int[m.distinct.length];
            m.unitStart = signed ? new int[m.distinct.length + 1] : null;
            m.unitSignatures = signed ? new byte[Signature.BYTES * m.distinct.length] : null;
            List<long[]> shardArrays = new ArrayList<>(responses.size());
            List<byte[]> shardSignatures = new ArrayList<>(responses.size());
            for (ShardAnswer r : responses) {
                shardSignatures.add(r.takeSignatures());
                shardArrays.add(r.takeFingerprints());
            }
            if (signed) {
                int[] merged = GroupMembers.mergeUnits(shardArrays, shardSignatures, m.distinct, m.unitStart, m.counts, m.unitSignatures);
                m.n = merged[0];
                m.units = merged[1];
            } else {
                m.n = m.units = GroupMembers.merge(shardArrays, m.distinct, m.counts);
            }
            shardArrays = null;
            shardSignatures = null;
            reservation.release(shardBytes); // the shards' arrays are garbage once merged
            m.signatureBytes = signed ? (long) Signature.BYTES * docs : 0;
            m.distinctBytes = 8L * docs;
        }
        m.trim(signed, reservation);
        return m;
    }

    /**
     * Trimmed copies are reserved before they are made; the signatures are not copied (the units' come first, the
     * slack after them stays reserved until the compaction gives the whole array back).
     */
    private void trim(boolean signed, Reservation reservation) {
        if (n < distinct.length) {
            reservation.reserve(8L * n, "distinct fingerprints");
            distinct = Arrays.copyOf(distinct, n);
            reservation.release(distinctBytes);
            distinctBytes = 8L * n;
        }
        if (signed && n + 1 < unitStart.length) {
            reservation.reserve(4L * (n + 1), "unit starts");
            long before = 4L * unitStart.length;
            unitStart = Arrays.copyOf(unitStart, n + 1);
            reservation.release(before);
        }
        if (units < counts.length) {
            reservation.reserve(4L * units, "unit counts");
            long before = 4L * counts.length;
            counts = Arrays.copyOf(counts, units);
            reservation.release(before);
        }
        if (signed && n == units) {
            // one unit per fingerprint (the usual case): the grouping needs no starts
            reservation.release(4L * unitStart.length);
            unitStart = null;
        }
    }
}
