package org.nearduplicate.bench;

import org.junit.Test;

import java.util.SplittableRandom;

import org.nearduplicate.core.keys.CandidateKeys;
import org.nearduplicate.core.keys.StoredKeys;
import org.nearduplicate.core.sketch.Signature;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

/**
 * The benches' data model: documents are made again from their number alone (the node bench's probes and floor rely on
 * it), the stored keys are the indexed keys, and the check's planted copies stay matches (keys shared, signature
 * close, fingerprint within k).
 */
public class KeysModelTests {
    private final KeysModel model = new KeysModel(100_000);

    @Test
    public void testDocumentsAreAFunctionOfTheirNumber() {
        for (long i : new long[] { 0, 1, 2, 19_999, 20_000, 99_999 }) {
            KeysModel.Doc a = model.doc(i), b = new KeysModel(100_000).doc(i);
            assertEquals(a.fingerprint(), b.fingerprint());
            assertArrayEquals(a.minima(), b.minima());
        }
        // the planted pairs are the first 20 %: the second of a pair shares its first's topic
        assertEquals(model.doc(10).topic(), model.doc(11).topic());
        assertEquals(20_000, 2 * model.pairs());
        assertEquals(0, model.probeId(0, 100));
        assertEquals(2 * 10_000 / 100 * 99, model.probeId(99, 100));
    }

    @Test
    public void testStoredKeysAreTheIndexedKeys() {
        KeysModel.Doc d = model.doc(12_345);
        byte[] packed = StoredKeys.parse(KeysModel.LAYOUT, d.storedKeys());
        assertArrayEquals(d.keys(), KeysModel.LAYOUT.keysOfPacked(packed));
        assertEquals(64, d.signatureHex().length());
        assertEquals(16, d.fingerprintHex().length());
    }

    @Test
    public void testEditedCopiesStayMatches() {
        SplittableRandom r = new SplittableRandom(26);
        CandidateKeys layout = KeysModel.LAYOUT;
        for (int t = 0; t < 200; t++) {
            KeysModel.Doc base = model.doc(r.nextLong(model.docs));
            int slots = r.nextInt(9), flips = 1 + r.nextInt(10);
            KeysModel.Doc copy = model.edit(base, r, slots, flips);
            assertEquals(flips, Long.bitCount(base.fingerprint() ^ copy.fingerprint()));
            int agreeing = 0;
            for (int s = 0; s < Signature.SLOTS; s++)
                if (base.minima()[s] == copy.minima()[s]) agreeing++;
            assertTrue("at least 24 of 32 full values kept, got " + agreeing, agreeing >= Signature.SLOTS - 8);
            // 24 agreeing slots are far above the keys' guarantee (13): the copy shares at least two keys
            assertTrue(layout.sharedKeys(base.minima(), copy.minima(), 2) >= 2);
        }
    }
}
