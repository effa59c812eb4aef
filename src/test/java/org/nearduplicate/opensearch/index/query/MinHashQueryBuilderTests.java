package org.nearduplicate.opensearch.index.query;

import org.nearduplicate.lucene.MinHashQuery;
import org.nearduplicate.opensearch.NearDuplicatePlugin;
import org.apache.lucene.search.Query;
import org.nearduplicate.core.MinHashSettings;
import org.nearduplicate.core.sketch.MinHashSignatures;
import org.nearduplicate.core.sketch.MinHasher;
import org.opensearch.common.compress.CompressedXContent;
import org.opensearch.common.xcontent.XContentFactory;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.index.mapper.MapperService;
import org.opensearch.index.query.QueryShardContext;
import org.opensearch.index.query.QueryShardException;
import org.opensearch.plugins.Plugin;
import org.opensearch.test.AbstractQueryTestCase;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;

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
        XContentBuilder mapping = XContentFactory.jsonBuilder().startObject().startObject("properties")
            .startObject(MH_FIELD).field("type", "minhash").field("bands", 16).field("rows", 4).field("algorithm", MH_ALGORITHM).endObject()
            .startObject(MH_DEFAULT_FIELD).field("type", "minhash").endObject()
            .endObject().endObject();
        mapperService.merge("_doc", new CompressedXContent(mapping.toString()), MapperService.MergeReason.MAPPING_UPDATE);
    }

    private static int hashesOf(String field) {
        return field.equals(MH_FIELD) ? 64 : MinHashSettings.DEFAULT_HASHES;
    }

    @Override
    protected MinHashQueryBuilder doCreateTestQueryBuilder() {
        String field = randomFrom(MH_FIELD, MH_DEFAULT_FIELD);
        MinHashQueryBuilder b;
        if (randomBoolean()) {
            int[] sig = new int[hashesOf(field)];
            for (int i = 0; i < sig.length; i++) sig[i] = randomInt();
            b = new MinHashQueryBuilder(field, MinHashSignatures.toBase64(sig), null, false);
        } else {
            boolean html = randomBoolean();
            String words = "the harbor bridge reopened " + randomAlphaOfLength(6) + " after two years of repairs " + randomAlphaOfLength(5);
            b = new MinHashQueryBuilder(field, null, html ? "<html><body><p>" + words + "</p></body></html>" : words, html);
        }
        if (randomBoolean()) b.minSimilarity(randomDoubleBetween(0, 1, true));
        if (randomBoolean()) b.candidates(randomFrom(MinHashQueryBuilder.Candidates.values()));
        if (randomBoolean()) b.ignoreUnmapped(randomBoolean());
        return b;
    }

    @Override
    protected void doAssertLuceneQuery(MinHashQueryBuilder builder, Query query, QueryShardContext context) {
        assertThat(query, instanceOf(MinHashQuery.class));
        MinHashQuery q = (MinHashQuery) query;
        assertEquals(builder.fieldName(), q.getField());
        assertEquals(builder.minSimilarity(), q.getMinSimilarity(), 0);
        assertEquals(builder.candidates() == MinHashQueryBuilder.Candidates.SCAN, q.isScan());
    }

    public void testTextProbeUsesTheFieldsAlgorithm() throws IOException {
        String text = "The old harbor bridge reopened to traffic on Monday morning after two years of repairs.";
        MinHashQuery q = (MinHashQuery) new MinHashQueryBuilder(MH_FIELD, null, text, false).minSimilarity(1).toQuery(createShardContext());
        int[] expected = new MinHasher(MinHashSettings.fromAlgorithmId(MH_ALGORITHM)).signature(text);
        assertEquals(new MinHashQuery(MH_FIELD, expected, 1, new org.nearduplicate.core.keys.Lsh(16, 4), false), q);
        assertTrue(q.isExact());
    }

    public void testErrors() throws IOException {
        QueryShardContext context = createShardContext();
        String wrongLength = MinHashSignatures.toBase64(new int[8]);
        QueryShardException e = expectThrows(QueryShardException.class,
            () -> new MinHashQueryBuilder(MH_FIELD, wrongLength, null, false).toQuery(context));
        assertThat(e.getMessage(), containsString("signature has 8 values but the field's algorithm makes 64"));
        e = expectThrows(QueryShardException.class, () -> new MinHashQueryBuilder(TEXT_FIELD_NAME, wrongLength, null, false).toQuery(context));
        assertThat(e.getMessage(), containsString("requires a field of type [minhash]"));
        e = expectThrows(QueryShardException.class, () -> new MinHashQueryBuilder("nope", wrongLength, null, false).toQuery(context));
        assertThat(e.getMessage(), containsString("failed to find field [nope]"));
        e = expectThrows(QueryShardException.class, () -> new MinHashQueryBuilder(MH_FIELD, null, " ", false).toQuery(context));
        assertThat(e.getMessage(), containsString("empty or whitespace only"));
        expectThrows(IllegalArgumentException.class, () -> new MinHashQueryBuilder(MH_FIELD, "%%%", null, false));
        expectThrows(IllegalArgumentException.class, () -> new MinHashQueryBuilder(MH_FIELD, null, null, false));
        expectThrows(IllegalArgumentException.class, () -> new MinHashQueryBuilder(MH_FIELD, wrongLength, null, false).minSimilarity(1.5));
        ParsingException p = expectThrows(ParsingException.class,
            () -> parseQuery("{\"minhash_similar\": {\"field\": \"mh\", \"text\": \"a\", \"signature\": \"" + wrongLength + "\"}}"));
        assertThat(p.getMessage(), containsString("exactly one of"));
        p = expectThrows(ParsingException.class, () -> parseQuery("{\"minhash_similar\": {\"field\": \"mh\", \"text\": \"a\", \"candidates\": \"all\"}}"));
        assertThat(p.getMessage(), containsString("[candidates] must be [lsh] or [scan]"));
        p = expectThrows(ParsingException.class, () -> parseQuery("{\"minhash_similar\": {\"field\": \"mh\", \"text\": \"a\", \"min_similarity\": 2}}"));
        assertThat(p.getMessage(), containsString("[min_similarity] must be between 0 and 1"));
        p = expectThrows(ParsingException.class, () -> parseQuery("{\"minhash_similar\": {\"text\": \"a\"}}"));
        assertThat(p.getMessage(), containsString("requires [field]"));
    }
}
