package org.nearduplicate.opensearch.index.mapper;

import org.opensearch.index.mapper.DocumentMapper;
import org.opensearch.index.mapper.MapperParsingException;
import org.opensearch.index.mapper.MapperService;
import org.opensearch.index.mapper.ParsedDocument;

import java.io.IOException;

import org.nearduplicate.PlatformMapperTestCase;
import org.nearduplicate.core.MinHashSettings;
import org.nearduplicate.core.keys.Lsh;
import org.nearduplicate.core.keys.MinHashDefaults;
import org.nearduplicate.core.sketch.MinHashSignatures;
import org.nearduplicate.orchestration.field.IndexedFields;

import static org.hamcrest.Matchers.containsString;

/** The {@code minhash} field: mapping parameters, value forms, the errors of its object values, and merges. */
public class MinHashFieldMapperTests extends PlatformMapperTestCase {

    private DocumentMapper mapper(MappingParams params) throws IOException {
        return createDocumentMapper(fieldMapping(b -> {
            b.field("type", "minhash");
            params.accept(b);
        }));
    }

    private static int[] signature(int hashes) {
        int[] signature = new int[hashes];
        for (int i = 0; i < hashes; i++) {
            signature[i] = randomInt();
        }
        return signature;
    }

    private static void assertIndexed(ParsedDocument doc, Lsh lsh, int[] signature) {
        IndexedFields.assertSignature(fields(doc, "field"), lsh, signature);
    }

    public void testDefaultsAreSerialized() throws IOException {
        DocumentMapper mapper = mapper(b -> {});
        String mapping = mapper.mappingSource().string();
        assertThat(
            mapping,
            containsString(
                "\"type\":\"minhash\",\"bands\":"
                    + MinHashDefaults.BANDS
                    + ",\"rows\":"
                    + MinHashDefaults.ROWS
                    + ",\"algorithm\":\""
                    + MinHashFieldMapper.DEFAULT_ALGORITHM
                    + "\""
            )
        );
        MinHashFieldMapper field = (MinHashFieldMapper) mapper.mappers().getMapper("field");
        assertEquals(MinHashFieldMapper.DEFAULT_ALGORITHM, field.fieldType().algorithm());
        assertEquals(MinHashSettings.DEFAULT.hashes(), field.fieldType().hashes());
    }

    public void testAlgorithmIsStoredCanonical() throws IOException {
        DocumentMapper mapper = mapper(b -> b.field("algorithm", "minhash-v3:hashes=64").field("bands", 16).field("rows", 4));
        MinHashFieldMapper field = (MinHashFieldMapper) mapper.mappers().getMapper("field");
        String canonical = MinHashSettings.fromAlgorithmId("minhash-v3:hashes=64").algorithmId();
        assertEquals(canonical, field.fieldType().algorithm());
        assertEquals(64, field.fieldType().hashes());
        assertThat(mapper.mappingSource().string(), containsString("\"algorithm\":\"" + canonical + "\""));

        MapperParsingException unknown = expectThrows(MapperParsingException.class, () -> mapper(b -> b.field("algorithm", "external-x")));
        assertThat(unknown.getMessage() + unknown.getCause(), containsString("[algorithm] "));
        MapperParsingException empty = expectThrows(MapperParsingException.class, () -> mapper(b -> b.field("algorithm", " ")));
        assertThat(empty.getMessage() + empty.getCause(), containsString("[algorithm] must be a non-empty string, got [ ]"));
        MapperParsingException tooMany = expectThrows(
            MapperParsingException.class,
            () -> mapper(b -> b.field("algorithm", "minhash-v3:hashes=16").field("bands", 8).field("rows", 4))
        );
        assertThat(tooMany.getMessage(), containsString("invalid [minhash] field [field]: "));
    }

    public void testSettingsAreParsedOnce() throws IOException {
        MinHashFieldMapper field = (MinHashFieldMapper) mapper(b -> b.field("algorithm", "minhash-v3:hashes=64").field("bands", 16))
            .mappers()
            .getMapper("field");
        MinHashSettings settings = field.fieldType().settings();
        assertSame("parsed when the mapping was built, not on each call", settings, field.fieldType().settings());
        assertEquals(MinHashSettings.fromAlgorithmId("minhash-v3:hashes=64"), settings);
        assertEquals(settings.hashes(), field.fieldType().hashes());
    }

    public void testValueForms() throws IOException {
        DocumentMapper mapper = mapper(b -> {});
        Lsh lsh = new Lsh(MinHashDefaults.BANDS, MinHashDefaults.ROWS);
        int[] signature = signature(MinHashSettings.DEFAULT.hashes());
        String base64 = MinHashSignatures.toBase64(signature);
        assertIndexed(mapper.parse(source(b -> b.field("field", base64))), lsh, signature);
        assertIndexed(
            mapper.parse(
                source(
                    b -> b.startObject("field")
                        .field("signature", base64)
                        .field("algorithm", MinHashFieldMapper.DEFAULT_ALGORITHM)
                        .endObject()
                )
            ),
            lsh,
            signature
        );
        assertIndexed(mapper.parse(source(b -> b.startObject("field").field("signature", base64).endObject())), lsh, signature);
        assertEquals(0, fields(mapper.parse(source(b -> b.nullField("field"))), "field").size());
    }

    /** The field's own messages ({@code MinHashFieldTests}) reach the client as the cause of a parse failure. */
    public void testBadValues() throws IOException {
        DocumentMapper mapper = mapper(b -> {});
        String base64 = MinHashSignatures.toBase64(signature(MinHashSettings.DEFAULT.hashes()));
        assertBadValue(mapper, "{\"field\": 12}", "expected a base64 signature or an object with [signature], got [VALUE_NUMBER]");
        assertBadValue(
            mapper,
            "{\"field\": [\"" + base64 + "\", \"" + base64 + "\"]}",
            "takes a single signature per document, got several"
        );
        assertBadValue(mapper, "{\"field\": {\"signature\": 1}}", "unexpected [signature]; expected string [signature]");
        String other = MinHashSettings.fromAlgorithmId("minhash-v2").algorithmId();
        assertBadValue(
            mapper,
            "{\"field\": {\"signature\": \"" + base64 + "\", \"algorithm\": \"" + other + "\"}}",
            "signature was made with algorithm [" + other + "] but the field is mapped with algorithm ["
        );
    }

    private void assertBadValue(DocumentMapper mapper, String source, String message) {
        Exception e = expectDocumentFailure(() -> mapper.parse(source(source)));
        assertThat(e.getMessage(), containsString("failed to parse field [field] of type [minhash]"));
        assertNotNull(e.getCause());
        assertThat(e.getCause().getMessage(), containsString(message));
    }

    public void testParametersCannotBeUpdated() throws IOException {
        MapperService service = createMapperService(fieldMapping(b -> b.field("type", "minhash")));
        for (String[] update : new String[][] { { "bands", "8" }, { "rows", "2" }, { "algorithm", "minhash-v2" } }) {
            IllegalArgumentException e = expectThrows(
                IllegalArgumentException.class,
                () -> merge(service, fieldMapping(b -> b.field("type", "minhash").field(update[0], update[1])))
            );
            assertThat(e.getMessage(), containsString("Cannot update parameter [" + update[0] + "]"));
        }
        merge(service, fieldMapping(b -> b.field("type", "minhash")));
        merge(service, fieldMapping(b -> b.field("type", "minhash").field("algorithm", "minhash-v6")));
        assertThat(service.documentMapper().mappingSource().toString(), containsString(MinHashFieldMapper.DEFAULT_ALGORITHM));
    }
}
