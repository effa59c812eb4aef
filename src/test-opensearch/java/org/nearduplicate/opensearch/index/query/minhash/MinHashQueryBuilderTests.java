package org.nearduplicate.opensearch.index.query.minhash;

import org.apache.lucene.search.Query;

import org.opensearch.action.get.GetRequest;
import org.opensearch.action.get.GetResponse;
import org.opensearch.common.compress.CompressedXContent;
import org.opensearch.common.xcontent.XContentFactory;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.bytes.BytesReference;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.index.get.GetResult;
import org.opensearch.index.mapper.MapperService;
import org.opensearch.index.query.QueryShardContext;
import org.opensearch.index.query.QueryShardException;
import org.opensearch.plugins.Plugin;
import org.opensearch.test.AbstractQueryTestCase;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Map;
import java.util.Random;

import org.nearduplicate.core.MinHashSettings;
import org.nearduplicate.core.sketch.MinHashSignatures;
import org.nearduplicate.core.sketch.MinHasher;
import org.nearduplicate.lucene.MinHashQuery;
import org.nearduplicate.opensearch.NearDuplicatePlugin;
import org.nearduplicate.opensearch.index.mapper.MinHashFieldMapper;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.instanceOf;

/** Parsing, XContent and wire round trips (AbstractQueryTestCase) and the Lucene query of {@code minhash_similar}. */
public class MinHashQueryBuilderTests extends AbstractQueryTestCase<MinHashQueryBuilder> {
    static final String MH_FIELD = "mh"; // 16 bands x 4 rows, 64 values
    static final String MH_ALGORITHM = "minhash-v1:hashes=64";
    static final String MH_DEFAULT_FIELD = "mh_default";

    @Override
    protected Collection<Class<? extends Plugin>> getPlugins() {
        Collection<Class<? extends Plugin>> plugins = new ArrayList<>(super.getPlugins());
        plugins.add(NearDuplicatePlugin.class);
        return plugins;
    }

    @Override
    protected void initializeAdditionalMappings(MapperService mapperService) throws IOException {
        XContentBuilder mapping = XContentFactory.jsonBuilder()
            .startObject()
            .startObject("properties")
            .startObject(MH_FIELD)
            .field("type", "minhash")
            .field("bands", 16)
            .field("rows", 4)
            .field("algorithm", MH_ALGORITHM)
            .endObject()
            .startObject(MH_DEFAULT_FIELD)
            .field("type", "minhash")
            .endObject()
            .endObject()
            .endObject();
        mapperService.merge("_doc", new CompressedXContent(mapping.toString()), MapperService.MergeReason.MAPPING_UPDATE);
    }

    private static int hashesOf(String field) {
        return field.equals(MH_FIELD) ? 64 : MinHashSettings.DEFAULT_HASHES;
    }

    private static String algorithmOf(String field) {
        return field.equals(MH_FIELD) ? MinHashSettings.fromAlgorithmId(MH_ALGORITHM).algorithmId() : MinHashFieldMapper.DEFAULT_ALGORITHM;
    }

    /** The signature stored in the fake document {@code <field>-...}: seeded by the id, sized for the field. */
    static int[] signatureOfDoc(String id) {
        String field = id.startsWith(MH_DEFAULT_FIELD) ? MH_DEFAULT_FIELD : MH_FIELD;
        Random random = new Random(id.hashCode());
        int[] signature = new int[hashesOf(field)];
        for (int i = 0; i < signature.length; i++)
            signature[i] = random.nextInt();
        return signature;
    }

    /** Fake documents for {@code like}: {@code <field>-*} hold the processor's object for that field, the rest test errors. */
    @Override
    protected GetResponse executeGet(GetRequest getRequest) {
        String id = getRequest.id();
        try {
            XContentBuilder source = XContentFactory.jsonBuilder().startObject();
            String field = getRequest.fetchSourceContext().includes()[0];
            if (id.startsWith("missing")) {
                return new GetResponse(new GetResult(getRequest.index(), id, -2, 0, -1, false, null, Map.of(), Map.of()));
            } else if (id.startsWith("nofield")) {
                source.field("title", "no signature here");
            } else if (id.startsWith("plain")) {
                source.field(field, MinHashSignatures.toBase64(signatureOfDoc(id)));
            } else if (id.startsWith("other-alg")) {
                source.startObject(field)
                    .field("signature", MinHashSignatures.toBase64(signatureOfDoc(id)))
                    .field("algorithm", "simhash-v1")
                    .endObject();
            } else if (id.startsWith("several")) {
                source.array(field, MinHashSignatures.toBase64(signatureOfDoc(id)), MinHashSignatures.toBase64(signatureOfDoc(id)));
            } else {
                source.startObject(field)
                    .field("signature", MinHashSignatures.toBase64(signatureOfDoc(id)))
                    .field("algorithm", algorithmOf(field))
                    .endObject();
            }
            source.endObject();
            return new GetResponse(new GetResult(getRequest.index(), id, 0, 1, 1, true, BytesReference.bytes(source), Map.of(), Map.of()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected MinHashQueryBuilder doCreateTestQueryBuilder() {
        String field = randomFrom(MH_FIELD, MH_DEFAULT_FIELD);
        MinHashQueryBuilder b;
        if (randomInt(4) == 0) {
            b = new MinHashQueryBuilder(
                field,
                MinHashProbe.like("pages", field + "-" + randomAlphaOfLength(5), randomBoolean() ? null : "r1")
            );
        } else if (randomBoolean()) {
            int[] sig = new int[hashesOf(field)];
            for (int i = 0; i < sig.length; i++)
                sig[i] = randomInt();
            b = new MinHashQueryBuilder(
                field,
                MinHashProbe.signature(MinHashSignatures.toBase64(sig), randomBoolean() ? null : algorithmOf(field))
            );
        } else {
            boolean html = randomBoolean();
            String words = "the harbor bridge reopened " + randomAlphaOfLength(6) + " after two years of repairs " + randomAlphaOfLength(5);
            b = new MinHashQueryBuilder(
                field,
                html ? MinHashProbe.html("<html><body><p>" + words + "</p></body></html>") : MinHashProbe.text(words)
            );
        }
        if (randomBoolean()) b.minSimilarity(randomDoubleBetween(0, 1, true));
        if (randomBoolean()) b.candidates(randomFrom(MinHashQueryOptions.Candidates.values()));
        if (randomBoolean()) b.ignoreUnmapped(randomBoolean());
        return b;
    }

    @Override
    protected void doAssertLuceneQuery(MinHashQueryBuilder builder, Query query, QueryShardContext context) {
        assertThat(query, instanceOf(MinHashQuery.class));
        MinHashQuery q = (MinHashQuery) query;
        assertEquals(builder.fieldName(), q.getField());
        assertEquals(builder.minSimilarity(), q.getMinSimilarity(), 0);
        assertEquals(builder.candidates() == MinHashQueryOptions.Candidates.SCAN, q.isScan());
        if (builder.probe().like() != null) {
            int[] stored = signatureOfDoc(builder.probe().like().id());
            assertEquals(
                new MinHashQuery(
                    q.getField(),
                    stored,
                    q.getMinSimilarity(),
                    ((MinHashFieldMapper.MinHashFieldType) context.fieldMapper(builder.fieldName())).lsh(),
                    q.isScan()
                ),
                q
            );
        }
    }

    @Override
    public void testMustRewrite() throws IOException {
        QueryShardContext context = createShardContext();
        MinHashQueryBuilder builder = new MinHashQueryBuilder(MH_FIELD, MinHashProbe.like("pages", MH_FIELD + "-1", null));
        IllegalStateException e = expectThrows(IllegalStateException.class, () -> builder.toQuery(context));
        assertThat(e.getMessage(), containsString("must be rewritten first"));
    }

    public void testLikeReadsTheStoredSignatureOfTheSameField() throws IOException {
        for (String id : new String[] { MH_FIELD + "-object", "plain-1" }) {
            MinHashQueryBuilder builder = new MinHashQueryBuilder(MH_FIELD, MinHashProbe.like("pages", id, "r1")).minSimilarity(0.8);
            MinHashQuery q = (MinHashQuery) rewriteAndFetch(builder, createShardContext()).toQuery(createShardContext());
            assertEquals(new MinHashQuery(MH_FIELD, signatureOfDoc(id), 0.8, new org.nearduplicate.core.keys.Lsh(16, 4), false), q);
        }
    }

    public void testLikeErrors() {
        for (String id : new String[] { "missing-1", "nofield-1", "other-alg-1", "several-1" }) {
            MinHashQueryBuilder builder = new MinHashQueryBuilder(MH_FIELD, MinHashProbe.like("pages", id, null));
            Exception e = expectThrows(Exception.class, () -> rewriteAndFetch(builder, createShardContext()).toQuery(createShardContext()));
            String message = e.getMessage() + (e.getCause() == null ? "" : " " + e.getCause().getMessage());
            switch (id) {
                case "missing-1" -> assertThat(message, containsString("[like] document [pages][missing-1] does not exist"));
                case "nofield-1" -> assertThat(message, containsString("[like] document [pages][nofield-1] has no value in field [mh]"));
                case "several-1" -> assertThat(message, containsString("[like] document [pages][several-1] has 2 values in field [mh]"));
                default -> assertThat(message, containsString("made with algorithm [simhash-v1] but field [mh] is mapped with algorithm"));
            }
        }
    }

    public void testTextProbeUsesTheFieldsAlgorithm() throws IOException {
        String text = "The old harbor bridge reopened to traffic on Monday morning after two years of repairs.";
        MinHashQuery q = (MinHashQuery) new MinHashQueryBuilder(MH_FIELD, MinHashProbe.text(text)).minSimilarity(1)
            .toQuery(createShardContext());
        int[] expected = new MinHasher(MinHashSettings.fromAlgorithmId(MH_ALGORITHM)).signature(text);
        assertEquals(new MinHashQuery(MH_FIELD, expected, 1, new org.nearduplicate.core.keys.Lsh(16, 4), false), q);
        assertTrue(q.isExact());
    }

    public void testErrors() throws IOException {
        QueryShardContext context = createShardContext();
        String wrongLength = MinHashSignatures.toBase64(new int[8]);
        QueryShardException e = expectThrows(
            QueryShardException.class,
            () -> new MinHashQueryBuilder(MH_FIELD, MinHashProbe.signature(wrongLength, null)).toQuery(context)
        );
        assertThat(e.getMessage(), containsString("signature has 8 values but the field's algorithm makes 64"));
        e = expectThrows(
            QueryShardException.class,
            () -> new MinHashQueryBuilder(TEXT_FIELD_NAME, MinHashProbe.signature(wrongLength, null)).toQuery(context)
        );
        assertThat(e.getMessage(), containsString("requires a field of type [minhash]"));
        e = expectThrows(
            QueryShardException.class,
            () -> new MinHashQueryBuilder("nope", MinHashProbe.signature(wrongLength, null)).toQuery(context)
        );
        assertThat(e.getMessage(), containsString("failed to find field [nope]"));
        e = expectThrows(QueryShardException.class, () -> new MinHashQueryBuilder(MH_FIELD, MinHashProbe.text(" ")).toQuery(context));
        assertThat(e.getMessage(), containsString("empty or whitespace only"));
        expectThrows(IllegalArgumentException.class, () -> MinHashProbe.signature("%%%", null));
        expectThrows(IllegalArgumentException.class, () -> new MinHashQueryBuilder("", MinHashProbe.text("a")));
        expectThrows(
            IllegalArgumentException.class,
            () -> new MinHashQueryBuilder(MH_FIELD, MinHashProbe.signature(wrongLength, null)).minSimilarity(1.5)
        );
        ParsingException p = expectThrows(
            ParsingException.class,
            () -> parseQuery("{\"minhash_similar\": {\"field\": \"mh\", \"text\": \"a\", \"signature\": \"" + wrongLength + "\"}}")
        );
        assertThat(p.getMessage(), containsString("exactly one of"));
        p = expectThrows(
            ParsingException.class,
            () -> parseQuery("{\"minhash_similar\": {\"field\": \"mh\", \"text\": \"a\", \"candidates\": \"all\"}}")
        );
        assertThat(p.getMessage(), containsString("[candidates] must be [lsh] or [scan]"));
        p = expectThrows(
            ParsingException.class,
            () -> parseQuery("{\"minhash_similar\": {\"field\": \"mh\", \"text\": \"a\", \"min_similarity\": 2}}")
        );
        assertThat(p.getMessage(), containsString("[min_similarity] must be between 0 and 1"));
        p = expectThrows(ParsingException.class, () -> parseQuery("{\"minhash_similar\": {\"text\": \"a\"}}"));
        assertThat(p.getMessage(), containsString("requires [field]"));
    }
}
