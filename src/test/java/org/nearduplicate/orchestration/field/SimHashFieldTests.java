package org.nearduplicate.orchestration.field;

import org.apache.lucene.index.DocValuesType;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.IndexableField;
import org.apache.lucene.util.BytesRef;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.nearduplicate.PlatformTestCase;
import org.nearduplicate.core.MaxDistance;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.keys.CandidateKeys;
import org.nearduplicate.core.keys.StoredKeys;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.core.sketch.SimHasher;
import org.nearduplicate.lucene.SimHashQuery;
import org.nearduplicate.lucene.SketchFields;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.startsWith;

/** The simhash field whatever the platform: its values, their Lucene fields, its layout and algorithm. */
public class SimHashFieldTests extends PlatformTestCase {

    private static SimHashField field(String algorithm) {
        return new SimHashField("fp", algorithm, new BlockLayout(4, 16));
    }

    private static SimHash parse(SimHashField field, String json) throws IOException {
        SimHashField.Value value = field.parse(new JsonValueReader(json));
        return value == null ? null : value.sketch();
    }

    public void testValueForms() throws IOException {
        SimHashField field = new SimHashField("fp");
        long fp = randomLong();
        assertEquals(SimHash.of(fp), parse(field, "\"" + Fingerprints.toHex(fp) + "\""));
        assertEquals(SimHash.of(fp), parse(field, "\"0x" + Long.toHexString(fp) + "\""));
        assertEquals(SimHash.of(fp), parse(field, "\"" + fp + "\""));
        assertEquals(SimHash.of(fp), parse(field, "\"" + Long.toUnsignedString(fp) + "\""));
        assertEquals(SimHash.of(fp), parse(field, Long.toString(fp)));
        assertEquals(SimHash.of(-7), parse(field, "-7"));
        assertEquals(SimHash.of(-1), parse(field, "18446744073709551615"));
        assertEquals(SimHash.of(fp), parse(field, "{\"fingerprint\": " + fp + ", \"algorithm\": \"" + field.algorithm() + "\"}"));
        assertEquals(SimHash.of(fp), parse(field, "{\"fingerprint\": \"" + Fingerprints.toHex(fp) + "\"}"));
        assertNull(parse(field, "null"));
        assertEquals(List.of(), field.parseFields(new JsonValueReader("null"), name -> true));
    }

    public void testFieldsOfAValue() throws IOException {
        BlockLayout layout = new BlockLayout(8, 6, 11);
        SimHashField field = new SimHashField("fp", "external-x", layout);
        long fp = randomLong();
        List<IndexableField> fields = field.parseFields(new JsonValueReader(Long.toString(fp)), name -> false);
        assertEquals(fp, IndexedFields.fingerprint(fields));
        IndexedFields.assertKeys(fields, layout, fp);
        IndexedFields.assertKeys(
            new SimHashField("fp", "x", new BlockLayout(4, 16, 0)).fields(SimHash.of(fp)),
            new BlockLayout(4, 16, 0),
            fp
        );
        IllegalArgumentException e = expectThrows(
            IllegalArgumentException.class,
            () -> field.parseFields(new JsonValueReader(Long.toString(fp)), "fp"::equals)
        );
        assertEquals("field [fp] of type [simhash] takes a single fingerprint per document, got several", e.getMessage());
    }

    public void testBadValues() {
        SimHashField field = field("alg-a");
        assertBadValue(field, "\"\"", "fingerprint must not be empty");
        assertBadValue(field, "\"0123456789abcdefg\"", "expected 16 hex digits, 0x-prefixed hex, or a decimal number");
        assertBadValue(field, "\"zz23456789abcdef\"", "[z] is not a hex digit");
        // only ASCII hex digits: fullwidth and Arabic-Indic digits are not hex digits (issue 23)
        assertBadValue(field, "\"\uff18\uff14eac0c067c7944a\"", "[\uff18] is not a hex digit");
        assertBadValue(field, "\"\u0668\u0664eac0c067c7944a\"", "[\u0668] is not a hex digit");
        assertBadValue(field, "{\"fingerprint\": \"0x\uff21\", \"algorithm\": \"alg-a\"}", "[\uff21] is not a hex digit");
        assertBadValue(field, "\"0x0123456789abcdef0\"", "expected 1 to 16 hex digits, got 17");
        assertBadValue(field, "1.5", "invalid fingerprint [1.5]: a numeric fingerprint must be an integer");
        assertBadValue(field, "36893488147419103232", "decimal value out of the 64-bit range");
        assertBadValue(field, "true", "invalid fingerprint: expected a string or an integer, got [VALUE_BOOLEAN]");
        assertBadValue(
            field,
            "{\"fingerprint\": \"00000000000000ff\", \"algorithm\": \"alg-b\"}",
            "fingerprint was made with algorithm [alg-b] but the field is mapped with algorithm [alg-a]"
        );
        assertBadValue(field, "{\"algorithm\": \"alg-a\"}", "object value is missing [fingerprint]");
        assertBadValue(field, "{\"fingerprint\": \"00000000000000ff\", \"extra\": 1}", "unknown key [extra]");
    }

    public void testObjectValueMessages() {
        SimHashField field = new SimHashField("fp");
        assertBadValue(field, "{\"fingerprint\": null}", "[fingerprint] must not be null");
        assertBadValue(field, "{\"fingerprint\": \"00000000000000ff\", \"algorithm\": 1}", "[algorithm] must be a string");
        assertBadValue(
            field,
            "{\"fingerprint\": \"00000000000000ff\", \"extra\": 1}",
            "unknown key [extra]; expected [fingerprint] and optionally [signature] and [algorithm]"
        );
        String v1 = SimHashSettings.DEFAULT_V1.algorithmId();
        assertBadValue(
            field,
            "{\"fingerprint\": \"00000000000000ff\", \"algorithm\": \"" + v1 + "\"}",
            "fingerprint was made with algorithm ["
                + v1
                + "] but the field is mapped with algorithm ["
                + SimHashField.DEFAULT_ALGORITHM
                + "]; fingerprints made differently cannot be compared. Set [version] to 7 (and the field's other options) on the "
                + "simhash processor that feeds it, or reindex into a field mapped with algorithm ["
                + v1
                + "]"
        );
        assertBadValue(
            field("alg-a"),
            "{\"fingerprint\": \"00000000000000ff\", \"algorithm\": \"alg-b\"}",
            "fingerprints made differently cannot be compared. Make the fingerprints with the field's algorithm, or reindex into a "
                + "field mapped with algorithm [alg-b]"
        );
    }

    /** The processor object of a simhash-v7 sketch: fingerprint, signature, keys and algorithm. */
    private static String v7Value(SimHash sketch, String keys) {
        return "{\"fingerprint\": \""
            + Fingerprints.toHex(sketch.fingerprint())
            + "\", \"signature\": \""
            + Signature.toHex(sketch.signature())
            + "\", \"keys\": \""
            + keys
            + "\", \"algorithm\": \""
            + SimHashSettings.DEFAULT_V7.algorithmId()
            + "\"}";
    }

    /**
     * simhash-v7 is mappable: its values' candidate keys are indexed as one docs-only term per key in {@code <field>#keys},
     * next to v6's fingerprint and signature. A value without keys (a bare fingerprint, an object made elsewhere, a v6
     * value) gets the marker term the keys path verifies against every probe; malformed keys are named. A v6 field takes
     * v7 values without their keys and refuses stray keys.
     */
    public void testVersion7IndexesItsCandidateKeys() throws IOException {
        for (String id : List.of("simhash-v7", " simhash-v7 ", SimHashSettings.DEFAULT_V7.algorithmId())) {
            assertEquals(SimHashSettings.DEFAULT_V7.algorithmId(), SimHashField.ALGORITHMS.canonical(id));
        }
        assertEquals(SimHashSettings.DEFAULT_V6.algorithmId(), SimHashField.ALGORITHMS.canonical("simhash-v6"));
        assertEquals(SimHashField.DEFAULT_ALGORITHM, SimHashSettings.DEFAULT_V7.algorithmId());

        SimHasher v7 = new SimHasher(SimHashSettings.DEFAULT_V7);
        SimHash sketch = v7.sketch("The old harbor bridge reopened to traffic on Monday after two years of repairs.");
        String keys = StoredKeys.of(SimHashSettings.DEFAULT_V7, sketch);
        String v7Value = v7Value(sketch, keys);
        SimHashField v7Field = field(SimHashSettings.DEFAULT_V7.algorithmId());
        assertEquals(CandidateKeys.V7.layoutId(), v7Field.candidateKeys().layoutId());
        assertEquals("fp#keys", v7Field.candidateKeysField());
        assertEquals(new SimHashQuery.CandidateKeyPath("fp#keys", CandidateKeys.V7, 2), v7Field.candidateKeyPath());
        assertEquals(14, v7Field.candidateKeyPath().guaranteedAgreeing());
        assertEquals(CandidateKeys.V7, new SimHashField("fp").candidateKeys());
        SimHashField v6 = new SimHashField("fp", SimHashSettings.DEFAULT_V6.algorithmId(), new BlockLayout(4, 16));
        assertNull(v6.candidateKeys());
        assertNull(v6.candidateKeyPath());

        SimHashField.Value value = v7Field.parse(new JsonValueReader(v7Value));
        assertEquals(new SimHash(sketch.fingerprint(), sketch.signature()), value.sketch());
        assertArrayEquals(CandidateKeys.V7.packedHashes(sketch.minima()), value.keys());
        List<IndexableField> fields = v7Field.parseFields(new JsonValueReader(v7Value), name -> false);
        assertEquals(sketch.fingerprint(), IndexedFields.fingerprint(fields.stream().filter(f -> f.name().equals("fp")).toList()));
        List<IndexableField> keyFields = fields.stream().filter(f -> f.name().equals("fp#keys")).toList();
        byte[] expected = CandidateKeys.V7.keys(sketch.minima());
        int keyBytes = CandidateKeys.V7.keyBytes();
        assertEquals(28, keyFields.size());
        for (int i = 0; i < keyFields.size(); i++) {
            IndexableField key = keyFields.get(i);
            assertEquals(IndexOptions.DOCS, key.fieldType().indexOptions());
            assertEquals(DocValuesType.NONE, key.fieldType().docValuesType());
            BytesRef term = key.binaryValue();
            assertArrayEquals(
                Arrays.copyOfRange(expected, i * keyBytes, (i + 1) * keyBytes),
                Arrays.copyOfRange(term.bytes, term.offset, term.offset + term.length)
            );
        }
        assertTrue(fields.stream().anyMatch(f -> f.name().equals("fp#signature")));
        // a v6 field indexes no key terms
        assertTrue(v6.fields(sketch).stream().noneMatch(f -> f.name().equals("fp#keys")));

        // without keys (bare, an object without algorithm, one naming v7, a v6 value of the same options): indexed with
        // the marker term instead of keys, which the keys path verifies against every probe
        SimHash v6Sketch = new SimHasher(SimHashSettings.DEFAULT_V6).sketch("The old harbor bridge reopened to traffic on Monday.");
        String v6Value = "{\"fingerprint\": \""
            + Fingerprints.toHex(v6Sketch.fingerprint())
            + "\", \"signature\": \""
            + Signature.toHex(v6Sketch.signature())
            + "\", \"algorithm\": \""
            + SimHashSettings.DEFAULT_V6.algorithmId()
            + "\"}";
        for (String keyless : List.of(
            "\"" + Fingerprints.toHex(sketch.fingerprint()) + "\"",
            "{\"fingerprint\": \"00000000000000ff\"}",
            "{\"fingerprint\": \"00000000000000ff\", \"signature\": \""
                + Signature.toHex(sketch.signature())
                + "\", \"algorithm\": \""
                + v7Field.algorithm()
                + "\"}",
            v6Value
        )) {
            List<IndexableField> marked = v7Field.parseFields(new JsonValueReader(keyless), name -> false)
                .stream()
                .filter(f -> f.name().equals("fp#keys"))
                .toList();
            assertEquals(keyless, 1, marked.size());
            assertEquals(keyless, SketchFields.withoutCandidateKeys(), marked.get(0).binaryValue());
            assertEquals(IndexOptions.DOCS, marked.get(0).fieldType().indexOptions());
        }
        assertEquals(new SimHash(v6Sketch.fingerprint(), v6Sketch.signature()), v7Field.parse(new JsonValueReader(v6Value)).sketch());
        // another sketch (v5) is still refused, with the version to set
        assertBadValue(
            v7Field,
            "{\"fingerprint\": \"00000000000000ff\", \"algorithm\": \"" + SimHashSettings.defaults(5).algorithmId() + "\"}",
            "fingerprints made differently cannot be compared. Set [version] to 7"
        );
        // malformed keys
        assertBadValue(v7Field, v7Value.replace(keys, keys.substring(4)), "invalid [keys] [");
        assertBadValue(v7Field, v7Value.replace(keys, keys.substring(4)), "expected 112 bytes");
        assertBadValue(v7Field, v7Value.replace(keys, "***"), "not base64");
        assertBadValue(v7Field, v7Value.replace("\"" + keys + "\"", "28"), "[keys] must be a string");

        // a v6 field takes a v7 value of its options: the same fingerprint and signature, its keys left out
        SimHashField v6Field = new SimHashField("fp", SimHashSettings.DEFAULT_V6.algorithmId(), new BlockLayout(4, 16));
        assertEquals(new SimHash(sketch.fingerprint(), sketch.signature()), v6Field.parse(new JsonValueReader(v7Value)).sketch());
        assertNull(v6Field.parse(new JsonValueReader(v7Value)).keys());
        assertTrue(v6Field.parseFields(new JsonValueReader(v7Value), name -> false).stream().noneMatch(f -> f.name().equals("fp#keys")));
        assertBadValue(
            v6Field,
            "{\"fingerprint\": \"00000000000000ff\", \"keys\": \"" + keys + "\"}",
            "[keys] given, but field [fp]'s algorithm [" + SimHashSettings.DEFAULT_V6.algorithmId() + "] has no candidate keys"
        );
        assertBadValue(v6Field, "{\"fingerprint\": \"00000000000000ff\", \"keys\": 28}", "[keys] must be a string");
    }

    /** simhash-v4 values carry a signature, indexed as binary doc values next to the fingerprint; older ones have none. */
    public void testSignatureIsIndexedAndChecked() throws IOException {
        SimHashField field = new SimHashField("fp");
        assertTrue(field.verifies());
        assertEquals("fp" + SketchFields.SIGNATURE_FIELD_SUFFIX, field.signatureField());
        byte[] signature = Signature.of(1, 2, 3);
        String hex = Signature.toHex(signature);
        List<IndexableField> fields = field.parseFields(
            new JsonValueReader("{\"fingerprint\": \"00000000000000ff\", \"signature\": \"" + hex + "\"}"),
            name -> false
        );
        IndexableField indexed = fields.stream().filter(f -> f.name().equals(field.signatureField())).findFirst().orElseThrow();
        assertEquals(hex, Signature.toHex(BytesRef.deepCopyOf(indexed.binaryValue()).bytes));
        // a bare fingerprint is accepted, without signature (compared on the fingerprint alone)
        assertFalse(parse(field, "\"00000000000000ff\"").hasSignature());
        assertBadValue(field, "{\"fingerprint\": \"00000000000000ff\", \"signature\": \"abc\"}", "invalid signature [abc]");
        assertBadValue(field, "{\"fingerprint\": \"00000000000000ff\", \"signature\": 7}", "[signature] must be a string");
        SimHashField v3 = field(SimHashSettings.fromAlgorithmId("simhash-v3").algorithmId());
        assertFalse(v3.verifies());
        assertTrue(Double.isNaN(v3.recommendedMinSimilarity()));
        assertBadValue(
            v3,
            "{\"fingerprint\": \"00000000000000ff\", \"signature\": \"" + hex + "\"}",
            "[signature] given, but field [fp]'s algorithm [" + v3.algorithm() + "] has no signatures"
        );
    }

    private static void assertBadValue(SimHashField field, String json, String message) {
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> parse(field, json));
        assertThat(e.getMessage(), containsString(message));
    }

    public void testSettingsOfTheAlgorithmGiveTheDefaultK() {
        SimHashField v1 = field(SimHashField.ALGORITHMS.canonical("simhash-v1"));
        SimHashSettings settings = v1.settings();
        assertEquals(SimHashSettings.DEFAULT_V1, settings);
        assertEquals(v1.algorithm(), settings.algorithmId());
        assertEquals("the default k of simhash-v1 fields", 12, MaxDistance.orField(null, v1.indexedMaxDistance(), settings));
        assertEquals(MaxDistance.recommended(v1.algorithm()), MaxDistance.recommended(settings));
        assertEquals(7, MaxDistance.orField(7, v1.indexedMaxDistance(), settings));

        assertEquals(SimHashSettings.DEFAULT, new SimHashField("fp").settings());
        assertEquals(MaxDistance.RECOMMENDED, MaxDistance.orField(null, 16, new SimHashField("fp").settings()));

        SimHashField external = new SimHashField("fp", "external-x", new BlockLayout(4, 5));
        assertNull("fingerprints made outside the plugin have no settings", external.settings());
        assertEquals(5, MaxDistance.orField(null, external.indexedMaxDistance(), external.settings()));
        assertEquals(MaxDistance.RECOMMENDED, MaxDistance.recommended((SimHashSettings) null));
        assertNull("an id of this engine it cannot read is foreign to a field built directly", field("simhash-v9").settings());
    }

    public void testAlgorithmsAreStoredCanonical() {
        String canonical = SimHashSettings.fromAlgorithmId("simhash-v1:weighting=tf").algorithmId();
        assertEquals(canonical, SimHashField.ALGORITHMS.canonical("simhash-v1:weighting=tf"));
        assertEquals(
            "a bare version pins that version's defaults",
            SimHashSettings.DEFAULT_V1.algorithmId(),
            SimHashField.ALGORITHMS.canonical(" simhash-v1 ")
        );
        assertEquals(
            "an older version keeps its own defaults",
            SimHashSettings.DEFAULT_V2.algorithmId(),
            SimHashField.ALGORITHMS.canonical("simhash-v2")
        );
        assertEquals("the newest version is the default", SimHashField.DEFAULT_ALGORITHM, SimHashField.ALGORITHMS.canonical("simhash-v7"));
        assertThat(SimHashField.DEFAULT_ALGORITHM, startsWith("simhash-v7:"));
        assertEquals("external-x", SimHashField.ALGORITHMS.canonical("external-x"));
        MappingException e = expectThrows(MappingException.class, () -> SimHashField.ALGORITHMS.canonical(" "));
        assertEquals("[algorithm] must be a non-empty string, got [ ]", e.getMessage());
        assertNull(e.getCause());
        e = expectThrows(MappingException.class, () -> SimHashField.ALGORITHMS.canonical(7));
        assertEquals("[algorithm] must be a non-empty string, got [7]", e.getMessage());
        e = expectThrows(MappingException.class, () -> SimHashField.ALGORITHMS.canonical("simhash-v9"));
        assertThat(e.getMessage(), containsString("[algorithm] unknown algorithm version [simhash-v9]"));
        assertTrue(e.getCause() instanceof IllegalArgumentException);
    }

    public void testLayoutParameters() {
        assertEquals(new BlockLayout(4, 16), SimHashField.layoutOf(Map.of()));
        assertEquals(new BlockLayout(8, 6, 11), SimHashField.layoutOf(Map.of("blocks", 8, "max_distance", "6", "check_bits", 11)));
        assertEquals(new BlockLayout(8, 5), SimHashField.layout("f", 8, 5, -1));
        MappingException e = expectThrows(MappingException.class, () -> SimHashField.layout("f", 17, 16, -1));
        assertThat(e.getMessage(), containsString("invalid [simhash] field [f]: [blocks] must be between 1 and 16, got 17"));
        expectThrows(IllegalArgumentException.class, () -> SimHashField.layoutOf(Map.of("check_bits", 29)));
    }

    public void testTermQueryDisplayAndFetch() {
        SimHashField field = new SimHashField("fp");
        assertEquals(new SimHashQuery("fp", 255L, 0, field.layout(), false), field.termQuery("00000000000000ff"));
        assertEquals(new SimHashQuery("fp", 255L, 0, field.layout(), false), field.termQuery(new BytesRef("255")));
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> field.termQuery("zz"));
        assertThat(e.getMessage(), containsString("invalid fingerprint [zz]"));
        assertEquals("00000000000000ff", field.displayed(255L));
        assertEquals("x", field.displayed("x"));
        assertEquals("00000000000000ff", field.fetched(Map.of("fingerprint", "255", "algorithm", "x")));
        assertEquals("00000000000000ff", field.fetched(255));
        assertNull(field.fetched(null));
        assertTrue(field.fingerprintDocValues());
        expectThrows(IllegalArgumentException.class, () -> field.checkNoFetchFormat("hex"));
        e = expectThrows(IllegalArgumentException.class, () -> field.checkNoDocValueFormat("hex", null));
        assertEquals("Field [fp] of type [simhash] does not support custom formats", e.getMessage());
        e = expectThrows(IllegalArgumentException.class, () -> field.checkNoDocValueFormat(null, "UTC"));
        assertEquals("Field [fp] of type [simhash] does not support custom time zones", e.getMessage());
    }
}
