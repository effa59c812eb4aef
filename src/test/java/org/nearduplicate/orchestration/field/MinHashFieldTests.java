package org.nearduplicate.orchestration.field;

import org.apache.lucene.index.IndexableField;
import org.apache.lucene.util.BytesRef;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import org.nearduplicate.PlatformTestCase;
import org.nearduplicate.core.MinHashSettings;
import org.nearduplicate.core.keys.Lsh;
import org.nearduplicate.core.sketch.MinHashSignatures;
import org.nearduplicate.lucene.MinHashQuery;

import static org.hamcrest.Matchers.containsString;

/** The minhash field whatever the platform: its values, their Lucene fields, its layout and algorithm. */
public class MinHashFieldTests extends PlatformTestCase {

    private static int[] signature(int hashes) {
        int[] signature = new int[hashes];
        for (int i = 0; i < hashes; i++) {
            signature[i] = randomInt();
        }
        return signature;
    }

    private static int[] parse(MinHashField field, String json) throws IOException {
        return field.parse(new JsonValueReader(json));
    }

    public void testValueForms() throws IOException {
        MinHashField field = new MinHashField("mh");
        int[] signature = signature(MinHashSettings.DEFAULT.hashes());
        String base64 = MinHashSignatures.toBase64(signature);
        assertArrayEquals(signature, parse(field, "\"" + base64 + "\""));
        assertArrayEquals(signature, parse(field, "{\"signature\": \"" + base64 + "\", \"algorithm\": \"" + field.algorithm() + "\"}"));
        assertArrayEquals(signature, parse(field, "{\"signature\": \"" + base64 + "\"}"));
        assertNull(parse(field, "null"));

        List<IndexableField> fields = field.parseFields(new JsonValueReader("\"" + base64 + "\""), name -> false);
        IndexedFields.assertSignature(fields, field.lsh(), signature);
    }

    public void testBadValues() {
        MinHashField field = new MinHashField("mh");
        String base64 = MinHashSignatures.toBase64(signature(MinHashSettings.DEFAULT.hashes()));
        assertBadValue(field, "12", "expected a base64 signature or an object with [signature], got [VALUE_NUMBER]");
        assertBadValue(
            field,
            "\"" + MinHashSignatures.toBase64(signature(3)) + "\"",
            "signature has 3 values but the field's algorithm makes 128"
        );
        assertBadValue(field, "{\"algorithm\": \"x\"}", "object value is missing [signature]");
        assertBadValue(
            field,
            "{\"signature\": \"" + base64 + "\", \"extra\": 1}",
            "unexpected [extra]; expected string [signature] and optionally string [algorithm]"
        );
        assertBadValue(field, "{\"signature\": 1}", "unexpected [signature]; expected string [signature]");
        assertBadValue(field, "{\"signature\": \"" + base64 + "\", \"algorithm\": 1}", "unexpected [algorithm]");
        String other = MinHashSettings.fromAlgorithmId("minhash-v2").algorithmId();
        assertBadValue(
            field,
            "{\"signature\": \"" + base64 + "\", \"algorithm\": \"" + other + "\"}",
            "signature was made with algorithm ["
                + other
                + "] but the field is mapped with algorithm ["
                + MinHashField.DEFAULT_ALGORITHM
                + "]; signatures made differently cannot be compared. Set [version] to "
                + MinHashSettings.DEFAULT.version()
                + " (and the field's other options) on the minhash processor that feeds it, or reindex into a field mapped with algorithm ["
                + other
                + "]"
        );
        IllegalArgumentException e = expectThrows(
            IllegalArgumentException.class,
            () -> field.parseFields(new JsonValueReader("\"" + base64 + "\""), name -> true)
        );
        assertEquals("field [mh] of type [minhash] takes a single signature per document, got several", e.getMessage());
    }

    private static void assertBadValue(MinHashField field, String json, String message) {
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> parse(field, json));
        assertThat(e.getMessage(), containsString(message));
    }

    public void testNewMappingsParameters() {
        MinHashField field = MinHashField.of("leaf", "obj.leaf", 16, 4, "minhash-v3:hashes=64");
        assertEquals("obj.leaf", field.name());
        assertEquals(new Lsh(16, 4), field.lsh());
        assertEquals(64, field.hashes());
        MappingException e = expectThrows(MappingException.class, () -> MinHashField.of("leaf", "leaf", 8, 4, "minhash-v3:hashes=16"));
        assertThat(e.getMessage(), containsString("invalid [minhash] field [leaf]: "));
        assertTrue(e.getCause() instanceof IllegalArgumentException);
        expectThrows(MappingException.class, () -> MinHashField.of("leaf", "leaf", 0, 4, MinHashField.DEFAULT_ALGORITHM));
        assertEquals(MinHashField.DEFAULT_ALGORITHM, MinHashField.ALGORITHMS.canonical("minhash-v6"));
        MappingException unknown = expectThrows(MappingException.class, () -> MinHashField.ALGORITHMS.canonical("external-x"));
        assertThat(unknown.getMessage(), containsString("[algorithm] "));
    }

    public void testTermQueryAndFetch() {
        MinHashField field = new MinHashField("mh");
        int[] signature = signature(field.hashes());
        String base64 = MinHashSignatures.toBase64(signature);
        assertEquals(new MinHashQuery("mh", signature, 1.0, field.lsh(), false), field.termQuery(base64));
        assertEquals(new MinHashQuery("mh", signature, 1.0, field.lsh(), false), field.termQuery(new BytesRef(base64)));
        expectThrows(IllegalArgumentException.class, () -> field.termQuery(MinHashSignatures.toBase64(signature(3))));
        assertEquals(base64, field.fetched(Map.of("signature", base64, "algorithm", "x")));
        assertEquals(base64, field.fetched(base64));
        assertEquals(base64, field.displayed(base64));
        assertFalse(field.fingerprintDocValues());
    }
}
