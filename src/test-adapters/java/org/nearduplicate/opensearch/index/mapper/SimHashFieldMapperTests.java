package org.nearduplicate.opensearch.index.mapper;

import org.apache.lucene.index.IndexableField;
import org.apache.lucene.util.BytesRef;

import org.opensearch.index.mapper.DocumentMapper;
import org.opensearch.index.mapper.MapperParsingException;
import org.opensearch.index.mapper.MapperService;
import org.opensearch.index.mapper.ParsedDocument;
import org.opensearch.search.DocValueFormat;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

import org.nearduplicate.PlatformMapperTestCase;
import org.nearduplicate.core.MaxDistance;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.keys.CandidateKeys;
import org.nearduplicate.core.keys.StoredKeys;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.core.sketch.SimHasher;
import org.nearduplicate.orchestration.field.IndexedFields;

import static org.hamcrest.Matchers.containsString;

public class SimHashFieldMapperTests extends PlatformMapperTestCase {

    private DocumentMapper mapper(MappingParams params) throws IOException {
        return createDocumentMapper(fieldMapping(b -> {
            b.field("type", "simhash");
            params.accept(b);
        }));
    }

    private static long indexedFingerprint(ParsedDocument doc) {
        return IndexedFields.fingerprint(fields(doc, "field"));
    }

    private static void assertKeys(ParsedDocument doc, BlockLayout layout, long fingerprint) throws IOException {
        IndexedFields.assertKeys(fields(doc, "field"), layout, fingerprint);
    }

    public void testCheckBitsParameter() throws IOException {
        long fp = randomLong();
        DocumentMapper defaults = mapper(b -> {});
        assertThat(defaults.mappingSource().string(), containsString("\"check_bits\":28"));
        DocumentMapper none = mapper(b -> b.field("check_bits", 0));
        assertThat(none.mappingSource().string(), containsString("\"check_bits\":0"));
        assertKeys(none.parse(source(b -> b.field("field", Fingerprints.toHex(fp)))), new BlockLayout(4, 16, 0), fp);
        DocumentMapper narrow = mapper(b -> b.field("blocks", 8).field("max_distance", 6).field("check_bits", 11));
        assertKeys(narrow.parse(source(b -> b.field("field", Fingerprints.toHex(fp)))), new BlockLayout(8, 6, 11), fp);
        assertThat(
            mapper(b -> b.field("blocks", 8).field("max_distance", 6)).mappingSource().string(),
            containsString("\"check_bits\":24")
        );

        MapperParsingException e = expectThrows(MapperParsingException.class, () -> mapper(b -> b.field("check_bits", 29)));
        assertThat(e.getMessage(), containsString("[check_bits] must be between 0 and 28 for blocks [4] with max_distance [16]"));
        e = expectThrows(MapperParsingException.class, () -> mapper(b -> b.field("check_bits", -2)));
        assertThat(e.getMessage(), containsString("[check_bits] must be between 0 and 28"));
        e = expectThrows(MapperParsingException.class, () -> mapper(b -> b.field("check_bits", "many")));
        assertThat(e.getMessage() + e.getCause(), containsString("many"));
    }

    public void testValueForms() throws IOException {
        DocumentMapper mapper = mapper(b -> {});
        BlockLayout layout = new BlockLayout(4, 16);
        long fp = randomLong();

        ParsedDocument hex = mapper.parse(source(b -> b.field("field", Fingerprints.toHex(fp))));
        assertEquals(fp, indexedFingerprint(hex));
        assertKeys(hex, layout, fp);

        assertEquals(fp, indexedFingerprint(mapper.parse(source(b -> b.field("field", "0x" + Long.toHexString(fp))))));
        assertEquals(fp, indexedFingerprint(mapper.parse(source(b -> b.field("field", Long.toString(fp))))));
        assertEquals(fp, indexedFingerprint(mapper.parse(source(b -> b.field("field", Long.toUnsignedString(fp))))));
        assertEquals(fp, indexedFingerprint(mapper.parse(source(b -> b.field("field", fp)))));
        assertEquals(-7L, indexedFingerprint(mapper.parse(source(b -> b.field("field", -7)))));
        assertEquals(-1L, indexedFingerprint(mapper.parse(source("{\"field\": 18446744073709551615}"))));
        assertEquals(
            fp,
            indexedFingerprint(
                mapper.parse(
                    source(
                        b -> b.startObject("field")
                            .field("fingerprint", Fingerprints.toHex(fp))
                            .field("algorithm", SimHashFieldMapper.DEFAULT_ALGORITHM)
                            .endObject()
                    )
                )
            )
        );
        assertEquals(fp, indexedFingerprint(mapper.parse(source(b -> b.startObject("field").field("fingerprint", fp).endObject()))));
        assertEquals(fp, indexedFingerprint(mapper.parse(source(b -> b.startArray("field").value(Fingerprints.toHex(fp)).endArray()))));

        ParsedDocument nullValue = mapper.parse(source(b -> b.nullField("field")));
        assertTrue(fields(nullValue, "field").isEmpty());
        ParsedDocument absent = mapper.parse(source(b -> b.field("other", 1)));
        assertTrue(fields(absent, "field").isEmpty());
    }

    public void testCustomLayout() throws IOException {
        DocumentMapper mapper = mapper(b -> b.field("blocks", 8).field("max_distance", 5).field("algorithm", "external-x"));
        long fp = randomLong();
        ParsedDocument doc = mapper.parse(source(b -> b.field("field", Fingerprints.toHex(fp))));
        assertKeys(doc, new BlockLayout(8, 5), fp);
        SimHashFieldMapper.SimHashFieldType ft = mapper.mappers().getMapper("field") instanceof SimHashFieldMapper m ? m.fieldType() : null;
        assertNotNull(ft);
        assertEquals(5, ft.indexedMaxDistance());
        assertEquals("external-x", ft.algorithm());
    }

    public void testEngineAlgorithmsAreStoredCanonicalAndAlwaysSerialized() throws IOException {
        DocumentMapper mapper = mapper(b -> b.field("algorithm", "simhash-v1:weighting=tf"));
        SimHashFieldMapper field = (SimHashFieldMapper) mapper.mappers().getMapper("field");
        String canonical = org.nearduplicate.core.SimHashSettings.fromAlgorithmId("simhash-v1:weighting=tf").algorithmId();
        assertEquals(canonical, field.fieldType().algorithm());
        String mapping = mapper.mappingSource().string();
        assertThat(mapping, containsString("\"algorithm\":\"" + canonical + "\""));
        assertThat(mapping, containsString("\"blocks\":4"));
        assertThat(mapping, containsString("\"max_distance\":16"));

        // which version pins which defaults: SimHashFieldTests
        MapperParsingException e = expectThrows(MapperParsingException.class, () -> mapper(b -> b.field("algorithm", "simhash-v9")));
        assertThat(e.getMessage() + e.getCause(), containsString("unknown algorithm version [simhash-v9]"));
    }

    /**
     * simhash-v7 is mappable: a processor value's 28 candidate keys are indexed as docs-only terms of {@code field#keys}
     * next to the fingerprint and signature; a value without keys or with malformed ones is a 400 naming the fix (the
     * field's own messages: SimHashFieldTests).
     */
    public void testVersion7IndexesItsCandidateKeys() throws IOException {
        for (String id : new String[] { "simhash-v7", SimHashSettings.DEFAULT_V7.algorithmId() }) {
            SimHashFieldMapper field = (SimHashFieldMapper) mapper(b -> b.field("algorithm", id)).mappers().getMapper("field");
            assertEquals(SimHashSettings.DEFAULT_V7.algorithmId(), field.fieldType().algorithm());
        }
        DocumentMapper mapper = mapper(b -> b.field("algorithm", "simhash-v7"));
        assertThat(mapper.mappingSource().string(), containsString("\"algorithm\":\"" + SimHashSettings.DEFAULT_V7.algorithmId() + "\""));
        SimHash sketch = new SimHasher(SimHashSettings.DEFAULT_V7).sketch(
            "The harbor bridge reopened on Monday after two years of repairs."
        );
        String keys = StoredKeys.of(SimHashSettings.DEFAULT_V7, sketch);
        String value = "{\"fingerprint\": \""
            + Fingerprints.toHex(sketch.fingerprint())
            + "\", \"signature\": \""
            + Signature.toHex(sketch.signature())
            + "\", \"keys\": \""
            + keys
            + "\", \"algorithm\": \""
            + SimHashSettings.DEFAULT_V7.algorithmId()
            + "\"}";
        ParsedDocument doc = mapper.parse(source("{\"field\": " + value + "}"));
        assertEquals(sketch.fingerprint(), indexedFingerprint(doc));
        assertNotNull(doc.rootDoc().getField("field" + SimHashFieldMapper.SIGNATURE_FIELD_SUFFIX));
        List<IndexableField> keyTerms = fields(doc, "field#keys");
        assertEquals(28, keyTerms.size());
        byte[] expected = CandidateKeys.V7.keys(sketch.minima());
        int keyBytes = CandidateKeys.V7.keyBytes();
        for (int i = 0; i < keyTerms.size(); i++) {
            BytesRef term = keyTerms.get(i).binaryValue();
            assertEquals(org.apache.lucene.index.IndexOptions.DOCS, keyTerms.get(i).fieldType().indexOptions());
            assertArrayEquals(
                Arrays.copyOfRange(expected, i * keyBytes, (i + 1) * keyBytes),
                Arrays.copyOfRange(term.bytes, term.offset, term.offset + term.length)
            );
        }
        // a v6 field indexes no keys
        ParsedDocument v6 = mapper(b -> {}).parse(source("{\"field\": \"00000000000000ff\"}"));
        assertTrue(fields(v6, "field#keys").isEmpty());

        String fix = "Sketch the document with the simhash processor at [version] 7";
        assertBadValue(mapper, "{\"field\": \"00000000000000ff\"}", fix);
        assertBadValue(
            mapper,
            "{\"field\": {\"fingerprint\": \"00000000000000ff\", \"algorithm\": \"simhash-v7\"}}",
            "algorithm [simhash-v7]"
        );
        assertBadValue(
            mapper,
            "{\"field\": {\"fingerprint\": \"00000000000000ff\", \"algorithm\": \"" + SimHashSettings.DEFAULT_V7.algorithmId() + "\"}}",
            "but the value has no [keys]"
        );
        assertBadValue(
            mapper,
            "{\"field\": {\"fingerprint\": \"00000000000000ff\", \"algorithm\": \"" + SimHashFieldMapper.DEFAULT_ALGORITHM + "\"}}",
            "Set [version] to 7"
        );
        assertBadValue(mapper, "{\"field\": " + value.replace(keys, keys.substring(8)) + "}", "invalid [keys]");
        assertBadValue(mapper, "{\"field\": " + value.replace(keys, "%%%") + "}", "not base64");
    }

    /** The mapping's settings are parsed once; the default k they give is {@code SimHashFieldTests}'. */
    public void testSettingsAreParsedOnce() throws IOException {
        SimHashFieldMapper v1 = (SimHashFieldMapper) mapper(b -> b.field("algorithm", "simhash-v1")).mappers().getMapper("field");
        SimHashFieldMapper.SimHashFieldType ft = v1.fieldType();
        assertSame("parsed when the mapping was built, not on each call", ft.settings(), ft.settings());
        assertEquals(org.nearduplicate.core.SimHashSettings.DEFAULT_V1, ft.settings());
        assertEquals("the default k of simhash-v1 fields", 12, MaxDistance.orField(null, ft.indexedMaxDistance(), ft.settings()));
        SimHashFieldMapper external = (SimHashFieldMapper) mapper(b -> b.field("algorithm", "external-x").field("max_distance", 5))
            .mappers()
            .getMapper("field");
        assertNull("fingerprints made outside the plugin have no settings", external.fieldType().settings());
    }

    /** The field's own messages ({@code SimHashFieldTests}) reach the client as the cause of a parse failure. */
    public void testBadValues() throws IOException {
        DocumentMapper mapper = mapper(b -> b.field("algorithm", "alg-a"));
        assertBadValue(mapper, "{\"field\": \"\"}", "fingerprint must not be empty");
        assertBadValue(mapper, "{\"field\": 1.5}", "invalid fingerprint [1.5]: a numeric fingerprint must be an integer");
        assertBadValue(mapper, "{\"field\": 36893488147419103232}", "decimal value out of the 64-bit range");
        assertBadValue(mapper, "{\"field\": true}", "expected a string or an integer, got [VALUE_BOOLEAN]");
        assertBadValue(
            mapper,
            "{\"field\": [\"00000000000000ff\", \"00000000000000fe\"]}",
            "takes a single fingerprint per document, got several"
        );
        assertBadValue(
            mapper,
            "{\"field\": {\"fingerprint\": \"00000000000000ff\", \"algorithm\": \"alg-b\"}}",
            "fingerprint was made with algorithm [alg-b] but the field is mapped with algorithm [alg-a]"
        );
        assertBadValue(mapper, "{\"field\": {\"fingerprint\": null}}", "[fingerprint] must not be null");
        assertBadValue(mapper, "{\"field\": {\"fingerprint\": \"00000000000000ff\", \"extra\": 1}}", "unknown key [extra]");
    }

    /** simhash-v4 values carry a signature, indexed as binary doc values next to the fingerprint; older ones have none. */
    public void testSignatureIsIndexedAndChecked() throws IOException {
        DocumentMapper mapper = mapper(b -> {});
        String hex = org.nearduplicate.core.sketch.Signature.toHex(org.nearduplicate.core.sketch.Signature.of(1, 2, 3));
        ParsedDocument doc = mapper.parse(source("{\"field\": {\"fingerprint\": \"00000000000000ff\", \"signature\": \"" + hex + "\"}}"));
        org.apache.lucene.index.IndexableField signature = doc.rootDoc().getField("field" + SimHashFieldMapper.SIGNATURE_FIELD_SUFFIX);
        assertNotNull(signature);
        assertEquals(
            hex,
            org.nearduplicate.core.sketch.Signature.toHex(org.apache.lucene.util.BytesRef.deepCopyOf(signature.binaryValue()).bytes)
        );
        // a bare fingerprint is accepted, without signature (compared on the fingerprint alone)
        doc = mapper.parse(source("{\"field\": \"00000000000000ff\"}"));
        assertNull(doc.rootDoc().getField("field" + SimHashFieldMapper.SIGNATURE_FIELD_SUFFIX));
        assertBadValue(
            mapper(b -> b.field("algorithm", "simhash-v3")),
            "{\"field\": {\"fingerprint\": \"00000000000000ff\", \"signature\": \"" + hex + "\"}}",
            "has no signatures"
        );
    }

    private void assertBadValue(DocumentMapper mapper, String source, String message) {
        Exception e = expectDocumentFailure(() -> mapper.parse(source(source)));
        assertThat(e.getMessage(), containsString("failed to parse field [field] of type [simhash]"));
        assertNotNull(e.getCause());
        assertThat(e.getCause().getMessage(), containsString(message));
    }

    public void testMappingValidation() {
        MapperParsingException blocks = expectThrows(MapperParsingException.class, () -> mapper(b -> b.field("blocks", 17)));
        assertThat(blocks.getMessage() + blocks.getCause(), containsString("[blocks] must be between 1 and 16, got 17"));
        MapperParsingException k = expectThrows(
            MapperParsingException.class,
            () -> mapper(b -> b.field("blocks", 4).field("max_distance", 17))
        );
        assertThat(k.getMessage() + k.getCause(), containsString("[max_distance] must be between 0 and 16, got 17"));
        MapperParsingException keys = expectThrows(
            MapperParsingException.class,
            () -> mapper(b -> b.field("blocks", 16).field("max_distance", 8))
        );
        assertThat(keys.getMessage() + keys.getCause(), containsString("more than the limit of 256"));
        MapperParsingException alg = expectThrows(MapperParsingException.class, () -> mapper(b -> b.field("algorithm", " ")));
        assertThat(alg.getMessage() + alg.getCause(), containsString("[algorithm] must be a non-empty string"));
        MapperParsingException unknown = expectThrows(MapperParsingException.class, () -> mapper(b -> b.field("norms", false)));
        assertThat(unknown.getMessage(), containsString("unknown parameter [norms] on mapper [field] of type [simhash]"));
    }

    public void testParametersCannotBeUpdated() throws IOException {
        MapperService service = createMapperService(fieldMapping(b -> b.field("type", "simhash")));
        for (String[] update : new String[][] {
            { "blocks", "6" },
            { "max_distance", "2" },
            { "check_bits", "8" },
            { "algorithm", "other" } }) {
            IllegalArgumentException e = expectThrows(
                IllegalArgumentException.class,
                () -> merge(service, fieldMapping(b -> b.field("type", "simhash").field(update[0], update[1])))
            );
            assertThat(e.getMessage(), containsString("Cannot update parameter [" + update[0] + "]"));
        }
        // repeating the mapping, with or without the resolved default check bits, is no update
        merge(service, fieldMapping(b -> b.field("type", "simhash")));
        merge(service, fieldMapping(b -> b.field("type", "simhash").field("check_bits", 28)));
        assertThat(service.documentMapper().mappingSource().toString(), containsString("\"check_bits\":28"));
    }

    public void testMappingSerializesDefaults() throws IOException {
        MapperService service = createMapperService(
            fieldMapping(b -> b.field("type", "simhash").field("blocks", 5).field("max_distance", 2))
        );
        String mapping = service.documentMapper().mappingSource().toString();
        assertThat(mapping, containsString("\"type\":\"simhash\",\"blocks\":5,\"max_distance\":2"));
    }

    public void testDocValueFormatIsHex() throws IOException {
        MapperService service = createMapperService(fieldMapping(b -> b.field("type", "simhash")));
        DocValueFormat format = service.fieldType("field").docValueFormat(null, null);
        assertEquals("00000000000000ff", format.format(255L));
        assertEquals("ffffffffffffffff", format.format(-1L));
        assertEquals(255L, format.parseLong("00000000000000ff", false, () -> 0L));
        expectThrows(IllegalArgumentException.class, () -> service.fieldType("field").docValueFormat("hex", null));
    }
}
