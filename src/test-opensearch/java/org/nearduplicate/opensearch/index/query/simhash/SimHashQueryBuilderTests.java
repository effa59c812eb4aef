package org.nearduplicate.opensearch.index.query.simhash;

import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;

import org.opensearch.action.get.GetRequest;
import org.opensearch.action.get.GetResponse;
import org.opensearch.common.compress.CompressedXContent;
import org.opensearch.common.io.stream.BytesStreamOutput;
import org.opensearch.common.xcontent.XContentFactory;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.Strings;
import org.opensearch.core.common.bytes.BytesReference;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.core.xcontent.MediaTypeRegistry;
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

import org.nearduplicate.core.ContentType;
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
import org.nearduplicate.opensearch.NearDuplicatePlugin;
import org.nearduplicate.opensearch.common.Platform;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;
import org.nearduplicate.opensearch.index.query.LikeDocument;
import org.nearduplicate.opensearch.index.query.ProbeQueryBuilder;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.instanceOf;

public class SimHashQueryBuilderTests extends AbstractQueryTestCase<SimHashQueryBuilder> {
    /** blocks 6, max_distance 3, a custom algorithm. */
    static final String FP_FIELD = "fp";
    static final String FP_ALGORITHM = "external-test-words-3";
    /** default mapping parameters. */
    static final String FP_DEFAULT_FIELD = "fp_default";
    /** simhash-v7: candidate keys indexed. */
    static final String FP_V7_FIELD = "fp_v7";
    /** The text of the fake v7 documents ({@code v7-...}). */
    static final String V7_TEXT = "harbor bridge opens after ten years of repairs, the city council said on monday";

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
            .startObject(FP_FIELD)
            .field("type", "simhash")
            .field("blocks", 6)
            .field("max_distance", 3)
            .field("algorithm", FP_ALGORITHM)
            .endObject()
            .startObject(FP_DEFAULT_FIELD)
            .field("type", "simhash")
            .endObject()
            .startObject(FP_V7_FIELD)
            .field("type", "simhash")
            .field("algorithm", "simhash-v7")
            .endObject()
            .endObject()
            .endObject();
        mapperService.merge("_doc", new CompressedXContent(mapping.toString()), MapperService.MergeReason.MAPPING_UPDATE);
    }

    /** The fingerprint stored in the fake document {@code id}. */
    static long fingerprintOfDoc(String id) {
        return id.hashCode() * 0x9E3779B97F4A7C15L;
    }

    @Override
    protected GetResponse executeGet(GetRequest getRequest) {
        String id = getRequest.id();
        try {
            XContentBuilder source = XContentFactory.jsonBuilder().startObject();
            if (id.startsWith("missing")) {
                return new GetResponse(new GetResult(getRequest.index(), id, -2, 0, -1, false, null, Map.of(), Map.of()));
            } else if (id.startsWith("nofield")) {
                source.field("title", "no fingerprint here");
            } else if (id.startsWith("plain")) {
                source.field(FP_FIELD, Fingerprints.toHex(fingerprintOfDoc(id)));
            } else if (id.startsWith("v7-")) {
                SimHash sketch = new SimHasher(SimHashSettings.DEFAULT_V7).sketch(V7_TEXT);
                source.startObject(FP_V7_FIELD)
                    .field("fingerprint", Fingerprints.toHex(sketch.fingerprint()))
                    .field("signature", Signature.toHex(sketch.signature()))
                    .field("keys", StoredKeys.of(SimHashSettings.DEFAULT_V7, sketch))
                    .field("algorithm", SimHashSettings.DEFAULT_V7.algorithmId())
                    .endObject();
            } else if (id.startsWith("other-alg")) {
                source.startObject(FP_FIELD)
                    .field("fingerprint", Fingerprints.toHex(fingerprintOfDoc(id)))
                    .field("algorithm", "minhash")
                    .endObject();
            } else {
                source.startObject(FP_FIELD)
                    .field("fingerprint", Fingerprints.toHex(fingerprintOfDoc(id)))
                    .field("algorithm", FP_ALGORITHM)
                    .endObject();
            }
            source.endObject();
            return new GetResponse(new GetResult(getRequest.index(), id, 0, 1, 1, true, BytesReference.bytes(source), Map.of(), Map.of()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected SimHashQueryBuilder doCreateTestQueryBuilder() {
        String field = randomFrom(FP_FIELD, FP_DEFAULT_FIELD);
        SimHashProbe probe;
        if (field.equals(FP_FIELD) && randomInt(4) == 0) {
            probe = SimHashProbe.like("pages", randomFrom("doc-", "plain-") + randomAlphaOfLength(5), randomBoolean() ? null : "r1");
        } else if (randomBoolean()) {
            probe = SimHashProbe.fingerprint(randomLong());
        } else {
            probe = SimHashProbe.fingerprint(randomLong(), field.equals(FP_FIELD) ? FP_ALGORITHM : SimHashFieldMapper.DEFAULT_ALGORITHM);
        }
        SimHashQueryBuilder builder = new SimHashQueryBuilder(field, probe);
        switch (randomInt(2)) {
            case 0 -> builder.maxDistance(null);
            case 1 -> builder.maxDistance(randomIntBetween(0, 3));
            default -> builder.maxDistance(randomIntBetween(4, 64)).allowScan(true);
        }
        if (randomBoolean()) {
            builder.ignoreUnmapped(randomBoolean());
        }
        return builder;
    }

    @Override
    protected void doAssertLuceneQuery(SimHashQueryBuilder builder, Query query, QueryShardContext context) {
        assertThat(query, instanceOf(SimHashQuery.class));
        SimHashQuery q = (SimHashQuery) query;
        assertEquals(builder.fieldName(), q.getField());
        long expected = builder.probe().like() != null ? fingerprintOfDoc(builder.probe().like().id()) : builder.probe().fingerprint();
        assertEquals(expected, q.getFingerprint());
        // FP_FIELD promises 3 (a 6/3 layout); the default field 16 (any k by multi-probe), where an absent k is 12
        int promised = builder.fieldName().equals(FP_FIELD) ? 3 : 16;
        int expectedK = builder.maxDistance() == null ? Math.min(MaxDistance.RECOMMENDED, promised) : builder.maxDistance();
        assertEquals(expectedK, q.getMaxDistance());
        assertEquals(expectedK > promised, q.isScan());
        assertEquals(builder.fieldName().equals(FP_FIELD) ? 6 : 4, q.getLayout().blocks());
    }

    @Override
    public void testMustRewrite() throws IOException {
        QueryShardContext context = createShardContext();
        SimHashQueryBuilder builder = new SimHashQueryBuilder(FP_FIELD, SimHashProbe.like("pages", "doc-1", null));
        IllegalStateException e = expectThrows(IllegalStateException.class, () -> builder.toQuery(context));
        assertThat(e.getMessage(), containsString("must be rewritten first"));
    }

    public void testShardLevelErrors() throws IOException {
        QueryShardContext context = createShardContext();
        QueryShardException notSimhash = expectThrows(
            QueryShardException.class,
            () -> new SimHashQueryBuilder(TEXT_FIELD_NAME, SimHashProbe.fingerprint(1)).toQuery(context)
        );
        assertThat(
            notSimhash.getMessage(),
            containsString("requires a field of type [simhash], but field [" + TEXT_FIELD_NAME + "] is of type [text]")
        );

        QueryShardException unmapped = expectThrows(
            QueryShardException.class,
            () -> new SimHashQueryBuilder("nope", SimHashProbe.fingerprint(1)).toQuery(context)
        );
        assertThat(unmapped.getMessage(), containsString("failed to find field [nope]"));
        assertThat(
            new SimHashQueryBuilder("nope", SimHashProbe.fingerprint(1)).ignoreUnmapped(true).toQuery(context),
            instanceOf(MatchNoDocsQuery.class)
        );

        // the node's column cache (near_duplicate.scan_cache.size, on by default) answers beyond the mapping without allow_scan
        Query beyondWithColumns = new SimHashQueryBuilder(FP_FIELD, SimHashProbe.fingerprint(1)).maxDistance(4).toQuery(context);
        assertThat(beyondWithColumns, instanceOf(SimHashQuery.class));
        assertTrue(((SimHashQuery) beyondWithColumns).isScan());
        // without it (size 0: a field type without columns) the mapping's max_distance is refused, naming allow_scan
        SimHashFieldMapper.SimHashFieldType withoutColumns = new SimHashFieldMapper.SimHashFieldType(
            FP_FIELD,
            new org.nearduplicate.core.keys.BlockLayout(6, 3),
            "custom",
            java.util.Map.of()
        );
        QueryShardException beyond = expectThrows(
            QueryShardException.class,
            () -> SimHashQuerying.INSTANCE.toQuery(
                Platform.shardContext(context),
                FP_FIELD,
                withoutColumns,
                SimHashProbe.fingerprint(1),
                new SimHashQueryOptions(4, false)
            )
        );
        assertThat(beyond.getMessage(), containsString("max_distance [4] exceeds the indexed max_distance [3] of field [fp]"));
        assertThat(beyond.getMessage(), containsString("[allow_scan]"));

        // issue 23: a million fingerprints at k = 16 are a clear 400 (was "integer overflow"), before any key is built
        long[] million = new long[1_000_000];
        for (int i = 0; i < million.length; i++) {
            million[i] = i;
        }
        QueryShardException tooManyKeys = expectThrows(
            QueryShardException.class,
            () -> new SimHashQueryBuilder(FP_DEFAULT_FIELD, SimHashProbe.fingerprints(million)).maxDistance(16).toQuery(context)
        );
        assertThat(
            tooManyKeys.getMessage(),
            containsString(
                "[near_duplicate] [fingerprints] 1000000 fingerprints at max_distance 16 need 4608000000 probe keys, "
                    + "more than the limit 5000000"
            )
        );
        assertEquals(RestStatus.BAD_REQUEST, tooManyKeys.status());

        QueryShardException wrongAlgorithm = expectThrows(
            QueryShardException.class,
            () -> new SimHashQueryBuilder(FP_FIELD, SimHashProbe.fingerprint(1, "minhash")).toQuery(context)
        );
        assertThat(
            wrongAlgorithm.getMessage(),
            containsString("made with algorithm [minhash] but field [fp] is mapped with algorithm [" + FP_ALGORITHM + "]")
        );

        QueryShardException text = expectThrows(
            QueryShardException.class,
            () -> new SimHashQueryBuilder(FP_FIELD, SimHashProbe.text("some words")).toQuery(context)
        );
        // the plugin registers the engine: it cannot make fingerprints of an algorithm it does not know
        assertThat(text.getMessage(), containsString("unknown algorithm version [" + FP_ALGORITHM + "]"));
    }

    public void testTextProbeUsesFieldAlgorithm() throws IOException {
        QueryShardContext context = createShardContext();
        // the field type fingerprints text probes with its own algorithm through the plugin instance's engine, using
        // the probe's declared content type
        SimHashSettings.Builder asText = new SimHashSettings.Builder(SimHashSettings.DEFAULT);
        asText.contentType = ContentType.TEXT;
        SimHashSettings.Builder asHtml = new SimHashSettings.Builder(SimHashSettings.DEFAULT);
        asHtml.contentType = ContentType.HTML;
        String words = "harbor bridge opens after ten years of repairs, the city council said on monday";
        String page = "<html><body><p>" + words + "</p></body></html>";
        SimHashQuery text = (SimHashQuery) new SimHashQueryBuilder(FP_DEFAULT_FIELD, SimHashProbe.text(words)).toQuery(context);
        assertEquals(new SimHasher(asText.build()).fingerprint(words), text.getFingerprint());
        SimHashQuery html = (SimHashQuery) new SimHashQueryBuilder(FP_DEFAULT_FIELD, SimHashProbe.html(page)).toQuery(context);
        assertEquals(new SimHasher(asHtml.build()).fingerprint(page), html.getFingerprint());
        // declared as text, the page's markup is read as words: another fingerprint than the HTML probe's
        SimHashQuery pageAsText = (SimHashQuery) new SimHashQueryBuilder(FP_DEFAULT_FIELD, SimHashProbe.text(page)).toQuery(context);
        assertEquals(new SimHasher(asText.build()).fingerprint(page), pageAsText.getFingerprint());
    }

    /**
     * On a simhash-v7 field, probes that carry candidate keys (text and html sketched with their min-wise values, a like
     * document's stored keys, a given value with keys) are answered from them with at least 2 shared keys; {@code exact},
     * a fingerprint-only probe or a min_similarity below the keys' guarantee answer exactly. Keys on a field without
     * them, or of another length, are a 400.
     */
    public void testVersion7ProbesUseTheCandidateKeys() throws IOException {
        QueryShardContext context = createShardContext();
        SimHashSettings.Builder asText = new SimHashSettings.Builder(SimHashSettings.DEFAULT_V7);
        asText.contentType = ContentType.TEXT;
        SimHash sketch = new SimHasher(asText.build()).sketch(V7_TEXT);
        SimHashQuery.CandidateKeyPath path = new SimHashQuery.CandidateKeyPath(FP_V7_FIELD + "#keys", CandidateKeys.V7, 2);
        SimHashQuery.Verification verification = new SimHashQuery.Verification(FP_V7_FIELD + "#signature", 0.40);
        SimHashQuery expected = new SimHashQuery(
            FP_V7_FIELD,
            new long[] { sketch.fingerprint() },
            new byte[][] { sketch.signature() },
            verification,
            16,
            new BlockLayout(4, 16),
            false,
            new SimHashQuery.CandidateKeyProbes(path, new byte[][] { CandidateKeys.V7.keys(sketch.minima()) })
        );

        SimHashQuery text = (SimHashQuery) new SimHashQueryBuilder(FP_V7_FIELD, SimHashProbe.text(V7_TEXT)).toQuery(context);
        assertEquals(expected, text);
        assertEquals(path, text.getCandidateKeyPath());
        assertFalse(text.isExact());
        assertThat(text.toString(), containsString("candidate_keys pairs:3x8+2x4,w=32 >= 2"));
        SimHashQuery exact = (SimHashQuery) new SimHashQueryBuilder(FP_V7_FIELD, SimHashProbe.text(V7_TEXT)).exact(true).toQuery(context);
        assertEquals(expected.withExact(true), exact);
        assertTrue(exact.isExact());

        // a given value with its keys (as near_duplicate_check sends them), and the same without: exact
        byte[] packed = CandidateKeys.V7.packedHashes(sketch.minima());
        SimHashQuery given = (SimHashQuery) new SimHashQueryBuilder(
            FP_V7_FIELD,
            SimHashProbe.fingerprint(new SimHash(sketch.fingerprint(), sketch.signature()), packed, null)
        ).toQuery(context);
        assertEquals(expected, given);
        SimHashQuery bare = (SimHashQuery) new SimHashQueryBuilder(
            FP_V7_FIELD,
            SimHashProbe.fingerprint(new SimHash(sketch.fingerprint(), sketch.signature()), null)
        ).toQuery(context);
        assertNull("a fingerprint-only probe is answered exactly", bare.getCandidateKeyPath());
        // below the keys' guarantee (13 agreeing slots) the keys would miss verified matches: exact
        SimHashQuery loose = (SimHashQuery) new SimHashQueryBuilder(FP_V7_FIELD, SimHashProbe.text(V7_TEXT)).options(
            new SimHashQueryOptions(null, false, 0.3)
        ).toQuery(context);
        assertNull(loose.getCandidateKeyPath());
        SimHashQuery strict = (SimHashQuery) new SimHashQueryBuilder(FP_V7_FIELD, SimHashProbe.text(V7_TEXT)).options(
            new SimHashQueryOptions(null, false, 0.5)
        ).toQuery(context);
        assertEquals(path, strict.getCandidateKeyPath());

        // several fingerprints with their keys, one entry without: the batch answers exactly
        SimHashQuery batch = (SimHashQuery) new SimHashQueryBuilder(
            FP_V7_FIELD,
            SimHashProbe.fingerprints(
                new long[] { sketch.fingerprint(), 7L },
                new byte[][] { sketch.signature(), sketch.signature() },
                new byte[][] { packed, packed },
                null
            )
        ).toQuery(context);
        assertEquals(path, batch.getCandidateKeyPath());
        assertThat(batch.toString(), containsString("candidate_keys"));

        // a like document of a v7 field carries its stored keys
        SimHashQuery like = (SimHashQuery) rewriteAndFetch(
            new SimHashQueryBuilder(FP_V7_FIELD, SimHashProbe.like(context.index().getName(), "v7-1", null)),
            context
        ).toQuery(context);
        SimHash stored = new SimHasher(SimHashSettings.DEFAULT_V7).sketch(V7_TEXT);
        assertEquals(
            new SimHashQuery(
                FP_V7_FIELD,
                new long[] { stored.fingerprint() },
                new byte[][] { stored.signature() },
                verification,
                16,
                new BlockLayout(4, 16),
                false,
                new SimHashQuery.CandidateKeyProbes(path, new byte[][] { CandidateKeys.V7.keys(stored.minima()) })
            ),
            like
        );

        QueryShardException noKeys = expectThrows(
            QueryShardException.class,
            () -> new SimHashQueryBuilder(
                FP_DEFAULT_FIELD,
                SimHashProbe.fingerprint(new SimHash(sketch.fingerprint(), sketch.signature()), packed, null)
            ).toQuery(context)
        );
        assertThat(noKeys.getMessage(), containsString("[keys] given, but field [fp_default]'s algorithm"));
        assertEquals(RestStatus.BAD_REQUEST, noKeys.status());
        QueryShardException shortKeys = expectThrows(
            QueryShardException.class,
            () -> new SimHashQueryBuilder(FP_V7_FIELD, SimHashProbe.fingerprint(new SimHash(1L, sketch.signature()), new byte[8], null))
                .toQuery(context)
        );
        assertThat(shortKeys.getMessage(), containsString("invalid [keys]: expected 112 bytes (28 keys of 4 bytes"));
        assertEquals(RestStatus.BAD_REQUEST, shortKeys.status());
    }

    /** {@code include_like: false}: the like document itself is not a hit on its own index's shards, only there. */
    public void testIncludeLikeFalseExcludesTheLikeDocument() throws IOException {
        QueryShardContext context = createShardContext();
        String index = context.index().getName();
        String json = "{\"near_duplicate\": {\"field\": \""
            + FP_FIELD
            + "\", \"like\": {\"_index\": \""
            + index
            + "\", \"_id\": \"doc-1\"}, \"include_like\": false}}";
        SimHashQueryBuilder builder = (SimHashQueryBuilder) parseQuery(json);
        assertThat(Strings.toString(MediaTypeRegistry.JSON, builder), containsString("\"include_like\":false"));
        Query query = rewriteAndFetch(builder, context).toQuery(context);
        assertThat(query, instanceOf(org.apache.lucene.search.BooleanQuery.class));
        org.apache.lucene.search.BooleanQuery bool = (org.apache.lucene.search.BooleanQuery) query;
        assertEquals(2, bool.clauses().size());
        assertThat(bool.clauses().get(0).query(), instanceOf(SimHashQuery.class));
        assertEquals(org.apache.lucene.search.BooleanClause.Occur.MUST_NOT, bool.clauses().get(1).occur());
        // the default keeps the like document; another index's document excludes nothing here
        SimHashQueryBuilder included = (SimHashQueryBuilder) parseQuery(json.replace(", \"include_like\": false", ""));
        assertThat(rewriteAndFetch(included, context).toQuery(context), instanceOf(SimHashQuery.class));
        SimHashQueryBuilder elsewhere = (SimHashQueryBuilder) parseQuery(json.replace("\"" + index + "\"", "\"pages\""));
        assertThat(rewriteAndFetch(elsewhere, context).toQuery(context), instanceOf(SimHashQuery.class));
        // the rewritten probe keeps the document it excludes, on the wire and in JSON
        SimHashQueryBuilder rewritten = (SimHashQueryBuilder) rewriteAndFetch(builder, context);
        assertEquals(new org.nearduplicate.opensearch.index.query.LikeDocument(index, "doc-1", null), rewritten.probe().excluded());
        assertThat(Strings.toString(MediaTypeRegistry.JSON, rewritten), containsString("\"excluded_like\":{\"_index\":\"" + index));
        assertEquals(rewritten, parseQuery(Strings.toString(MediaTypeRegistry.JSON, rewritten)));
        try (BytesStreamOutput out = new BytesStreamOutput()) {
            rewritten.writeTo(out);
            try (StreamInput in = out.bytes().streamInput()) {
                assertEquals(rewritten, new SimHashQueryBuilder(in));
            }
        }
        assertParseError(
            "{\"near_duplicate\": {\"field\": \"fp\", \"fingerprint\": 5, \"include_like\": false}}",
            "[include_like] goes with a [like] probe"
        );
    }

    private void assertParseError(String json, String message) {
        ParsingException e = expectThrows(ParsingException.class, () -> parseQuery(json));
        assertThat(e.getMessage() + (e.getCause() == null ? "" : " / " + e.getCause().getMessage()), containsString(message));
    }

    public void testLikeErrors() {
        for (String id : new String[] { "missing-1", "nofield-1", "other-alg-1" }) {
            SimHashQueryBuilder builder = new SimHashQueryBuilder(FP_FIELD, SimHashProbe.like("pages", id, null));
            Exception e = expectThrows(Exception.class, () -> rewriteAndFetch(builder, createShardContext()).toQuery(createShardContext()));
            String message = e.getMessage() + (e.getCause() == null ? "" : " " + e.getCause().getMessage());
            switch (id) {
                case "missing-1" -> assertThat(message, containsString("[like] document [pages][missing-1] does not exist"));
                case "nofield-1" -> assertThat(message, containsString("[like] document [pages][nofield-1] has no value in field [fp]"));
                default -> assertThat(message, containsString("made with algorithm [minhash] but field [fp] is mapped with algorithm"));
            }
        }
    }

    public void testTermQueryOnFieldIsExactMatch() throws IOException {
        QueryShardContext context = createShardContext();
        Query query = context.fieldMapper(FP_FIELD).termQuery("00000000000000ff", context);
        assertEquals(new SimHashQuery(FP_FIELD, 255L, 0, new org.nearduplicate.core.keys.BlockLayout(6, 3), false), query);
    }

    /** A method without a query class of its own: the generic builder reads and renders the same bytes and JSON. */
    public void testGenericBuilderIsWireAndJsonCompatible() throws IOException {
        for (int i = 0; i < 20; i++) {
            SimHashQueryBuilder original = createTestQueryBuilder();
            try (BytesStreamOutput out = new BytesStreamOutput()) {
                original.writeTo(out);
                try (StreamInput in = out.bytes().streamInput()) {
                    ProbeQueryBuilder.Of<SimHashProbe, SimHashQueryOptions> read = new ProbeQueryBuilder.Of<>(SimHashQuerying.INSTANCE, in);
                    assertEquals(original.options(), read.options());
                    assertEquals(Strings.toString(MediaTypeRegistry.JSON, original), Strings.toString(MediaTypeRegistry.JSON, read));
                    try (BytesStreamOutput again = new BytesStreamOutput()) {
                        read.writeTo(again);
                        assertEquals(out.bytes(), again.bytes());
                    }
                }
            }
        }
    }
}
