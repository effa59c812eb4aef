package org.nearduplicate.orchestration.field;

import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.TermFrequencyAttribute;
import org.apache.lucene.analysis.tokenattributes.TermToBytesRefAttribute;
import org.apache.lucene.index.DocValuesType;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.util.BytesRef;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.keys.Lsh;
import org.nearduplicate.core.sketch.MinHashSignatures;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

/**
 * Checks of the Lucene fields a {@code simhash} or {@code minhash} value is indexed as, for the neutral tests and for
 * the platforms' mapper tests (which hand over the fields their parsed documents hold under the field's name).
 */
public final class IndexedFields {
    private IndexedFields() {}

    /** The one fingerprint doc value among {@code fields}. */
    public static long fingerprint(List<IndexableField> fields) {
        Long value = null;
        for (IndexableField f : fields) {
            if (f.fieldType().docValuesType() == DocValuesType.NUMERIC) {
                assertNull("one doc value only", value);
                value = f.numericValue().longValue();
            }
        }
        assertNotNull("no doc value", value);
        return value;
    }

    /** {@code fields} index the block keys of {@code fingerprint}, with their check values when the layout has check bits. */
    public static void assertKeys(List<IndexableField> fields, BlockLayout layout, long fingerprint) throws IOException {
        byte[][] expected = layout.keys(fingerprint);
        List<IndexableField> keys = fields.stream().filter(f -> f.fieldType().indexOptions() != IndexOptions.NONE).toList();
        if (layout.checkBits() == 0) {
            assertEquals(layout.keyCount(), keys.size());
            for (int i = 0; i < keys.size(); i++) {
                IndexableField key = keys.get(i);
                assertEquals(IndexOptions.DOCS, key.fieldType().indexOptions());
                assertTrue(key.fieldType().omitNorms());
                BytesRef ref = key.binaryValue();
                assertArrayEquals(expected[i], Arrays.copyOfRange(ref.bytes, ref.offset, ref.offset + ref.length));
            }
            return;
        }
        // one token stream: every key with its check value + 1 as term frequency
        assertEquals(1, keys.size());
        IndexableField field = keys.get(0);
        assertEquals(IndexOptions.DOCS_AND_FREQS, field.fieldType().indexOptions());
        assertTrue(field.fieldType().omitNorms());
        try (TokenStream stream = field.tokenStream(null, null)) {
            TermToBytesRefAttribute term = stream.getAttribute(TermToBytesRefAttribute.class);
            TermFrequencyAttribute frequency = stream.getAttribute(TermFrequencyAttribute.class);
            stream.reset();
            for (int c = 0; c < layout.keyCount(); c++) {
                assertTrue(stream.incrementToken());
                assertEquals(new BytesRef(expected[c]), term.getBytesRef());
                assertEquals(layout.check(fingerprint, c) + 1, frequency.getTermFrequency());
            }
            assertFalse(stream.incrementToken());
            stream.end();
        }
    }

    /** {@code fields} index the band keys of {@code signature} and keep it as one binary doc value. */
    public static void assertSignature(List<IndexableField> fields, Lsh lsh, int[] signature) {
        List<BytesRef> keys = fields.stream()
            .filter(f -> f.fieldType().indexOptions() != IndexOptions.NONE)
            .map(IndexableField::binaryValue)
            .toList();
        List<BytesRef> expected = Arrays.stream(lsh.keys(signature)).map(BytesRef::new).toList();
        assertEquals(expected, keys);
        for (IndexableField key : fields) {
            if (key.fieldType().indexOptions() != IndexOptions.NONE) {
                assertEquals(IndexOptions.DOCS, key.fieldType().indexOptions());
                assertTrue(key.fieldType().omitNorms());
            }
        }
        List<IndexableField> docValues = fields.stream().filter(f -> f.fieldType().docValuesType() == DocValuesType.BINARY).toList();
        assertEquals(1, docValues.size());
        assertEquals(new BytesRef(MinHashSignatures.toBytes(signature)), docValues.get(0).binaryValue());
    }
}
