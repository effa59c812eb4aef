package org.nearduplicate.lucene;

import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.BytesTermAttribute;
import org.apache.lucene.analysis.tokenattributes.TermFrequencyAttribute;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.util.BytesRef;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.keys.Lsh;
import org.nearduplicate.core.sketch.MinHashSignatures;
import org.nearduplicate.core.sketch.SimHash;

/**
 * The Lucene fields of the {@code simhash} and {@code minhash} field types, the same on every platform (the field
 * mappers of OpenSearch and Elasticsearch only parse and validate): what {@link SimHashQuery} and
 * {@link MinHashQuery} read.
 */
public final class SketchFields {
    /**
     * The Lucene field of the verification signatures, next to the field's own: binary doc values of
     * {@code Signature.BYTES} bytes per document (a name no mapping can give a sub-field, which would be
     * {@code field.name}).
     */
    public static final String SIGNATURE_FIELD_SUFFIX = "#signature";
    /**
     * The Lucene field of the candidate keys ({@code simhash-v7} and later), next to the field's own: one docs-only
     * term per key ({@link #candidateKeyFields}), what the candidate-key path of {@link SimHashQuery} reads.
     */
    public static final String CANDIDATE_KEYS_FIELD_SUFFIX = "#keys";

    /** Keys without check bits: docs only. */
    static final FieldType KEY_FIELD_TYPE = new FieldType();
    /**
     * Keys with check bits: the check is the posting's term frequency, as Lucene's {@code FeatureField} stores its
     * values. Frequencies live in the postings file (memory-mapped by the default store, unlike positions and
     * payloads) and are decoded in blocks, so filtering candidates costs no random reads.
     */
    static final FieldType CHECKED_KEY_FIELD_TYPE = new FieldType();

    static {
        KEY_FIELD_TYPE.setIndexOptions(IndexOptions.DOCS);
        KEY_FIELD_TYPE.setOmitNorms(true);
        KEY_FIELD_TYPE.setTokenized(false);
        KEY_FIELD_TYPE.setStored(false);
        KEY_FIELD_TYPE.freeze();
        CHECKED_KEY_FIELD_TYPE.setIndexOptions(IndexOptions.DOCS_AND_FREQS);
        CHECKED_KEY_FIELD_TYPE.setOmitNorms(true);
        CHECKED_KEY_FIELD_TYPE.setTokenized(true);
        CHECKED_KEY_FIELD_TYPE.setStored(false);
        CHECKED_KEY_FIELD_TYPE.freeze();
    }

    private SketchFields() {}

    /** The Lucene field of {@code field}'s verification signatures. */
    public static String signatureField(String field) {
        return field + SIGNATURE_FIELD_SUFFIX;
    }

    /** The Lucene field of {@code field}'s candidate keys. */
    public static String candidateKeysField(String field) {
        return field + CANDIDATE_KEYS_FIELD_SUFFIX;
    }

    /** The fields of one {@code simhash} value: {@link #simHashFields} and, when it has one, its signature. */
    public static List<IndexableField> simHashFields(String name, BlockLayout layout, SimHash value) {
        List<IndexableField> fields = simHashFields(name, layout, value.fingerprint());
        if (value.hasSignature()) {
            fields.add(new BinaryDocValuesField(signatureField(name), new BytesRef(value.signature())));
        }
        return fields;
    }

    /**
     * The Lucene fields of one fingerprint: its block keys as terms (with their check bits as term frequencies when
     * the layout has check bits) and the fingerprint as a numeric doc value.
     */
    public static List<IndexableField> simHashFields(String name, BlockLayout layout, long fingerprint) {
        List<IndexableField> fields = new ArrayList<>(layout.keyCount() + 2);
        if (layout.checkBits() > 0) {
            fields.add(new Field(name, new CheckedKeysTokenStream(layout, fingerprint), CHECKED_KEY_FIELD_TYPE));
        } else {
            byte[] keys = new byte[layout.keyCount() * layout.keyBytes()];
            for (int c = 0; c < layout.keyCount(); c++) {
                layout.key(fingerprint, c, keys, c * layout.keyBytes());
                fields.add(new Field(name, new BytesRef(keys, c * layout.keyBytes(), layout.keyBytes()), KEY_FIELD_TYPE));
            }
        }
        fields.add(new NumericDocValuesField(name, fingerprint));
        return fields;
    }

    /**
     * The Lucene fields of one document's candidate keys ({@code core.keys.CandidateKeys#keys}: {@code keyBytes} each,
     * concatenated): one docs-only term per key, what the candidate-key path of {@link SimHashQuery} reads.
     */
    public static List<IndexableField> candidateKeyFields(String name, byte[] keys, int keyBytes) {
        if (keyBytes < 1 || keys.length % keyBytes != 0) {
            throw new IllegalArgumentException("candidate keys of " + keyBytes + " bytes, got " + keys.length + " bytes");
        }
        List<IndexableField> fields = new ArrayList<>(keys.length / keyBytes);
        for (int offset = 0; offset < keys.length; offset += keyBytes) {
            fields.add(new Field(name, new BytesRef(keys, offset, keyBytes), KEY_FIELD_TYPE));
        }
        return fields;
    }

    /** The Lucene fields of one MinHash signature: its band keys as terms, the signature as a binary doc value. */
    public static List<IndexableField> minHashFields(String name, Lsh lsh, int[] signature) {
        List<IndexableField> fields = new ArrayList<>(lsh.bands() + 1);
        for (byte[] key : lsh.keys(signature)) {
            fields.add(new Field(name, new BytesRef(key), KEY_FIELD_TYPE));
        }
        fields.add(new BinaryDocValuesField(name, new BytesRef(MinHashSignatures.toBytes(signature))));
        return fields;
    }

    /** One token per block key: the binary key as term, {@code check + 1} as its term frequency. */
    static final class CheckedKeysTokenStream extends TokenStream {
        private final BytesTermAttribute term = addAttribute(BytesTermAttribute.class);
        private final TermFrequencyAttribute frequency = addAttribute(TermFrequencyAttribute.class);
        private final BlockLayout layout;
        private final long fingerprint;
        private int next;

        CheckedKeysTokenStream(BlockLayout layout, long fingerprint) {
            this.layout = layout;
            this.fingerprint = fingerprint;
        }

        @Override
        public boolean incrementToken() {
            if (next == layout.keyCount()) {
                return false;
            }
            clearAttributes();
            byte[] key = new byte[layout.keyBytes()];
            layout.key(fingerprint, next, key, 0);
            term.setBytesRef(new BytesRef(key));
            frequency.setTermFrequency(Math.toIntExact(layout.check(fingerprint, next) + 1));
            next++;
            return true;
        }

        @Override
        public void reset() throws IOException {
            super.reset();
            next = 0;
        }
    }
}
