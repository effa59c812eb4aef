package org.nearduplicate.opensearch.index.query.minhash;

import org.apache.lucene.search.Query;

import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.xcontent.XContentParser;

import java.io.IOException;

import org.nearduplicate.lucene.MinHashQuery;
import org.nearduplicate.opensearch.common.ShardContext;
import org.nearduplicate.opensearch.index.mapper.MinHashFieldMapper;
import org.nearduplicate.opensearch.index.query.ProbeKind;
import org.nearduplicate.opensearch.index.query.ProbeQuerying;

/**
 * The {@code minhash_similar} query's part: its options ({@link MinHashQueryOptions}) and the {@link MinHashQuery} of
 * the resolved signature.
 */
public final class MinHashQuerying implements ProbeQuerying<MinHashProbe, MinHashQueryOptions, MinHashFieldMapper.MinHashFieldType> {
    public static final MinHashQuerying INSTANCE = new MinHashQuerying();

    private MinHashQuerying() {}

    @Override
    public ProbeKind<MinHashProbe> kind() {
        return MinHashProbe.KIND;
    }

    @Override
    public MinHashQueryOptions defaultOptions() {
        return MinHashQueryOptions.DEFAULT;
    }

    @Override
    public MinHashQueryOptions readOptions(StreamInput in) throws IOException {
        return MinHashQueryOptions.readFrom(in);
    }

    @Override
    public ProbeQuerying.OptionsParser<MinHashQueryOptions> optionsParser() {
        return new MinHashQueryOptions.Parser();
    }

    /** Every parse error is a 400. */
    @Override
    public RuntimeException parseFailure(XContentParser parser, IllegalArgumentException e) {
        return new ParsingException(parser.getTokenLocation(), e.getMessage(), e);
    }

    @Override
    public String unresolved() {
        return "probe not resolved yet";
    }

    @Override
    public String rewriteFirst() {
        return "to resolve its probe";
    }

    @Override
    public MinHashFieldMapper.MinHashFieldType targetField(ShardContext context, String field, String owner) {
        return MinHashProbe.minHashField(context, field, owner);
    }

    @Override
    public Query toQuery(
        ShardContext context,
        String field,
        MinHashFieldMapper.MinHashFieldType fieldType,
        MinHashProbe probe,
        MinHashQueryOptions options
    ) {
        int[] signature = probe.resolve(context, "[" + MinHashProbe.NAME + "]", fieldType);
        return new MinHashQuery(
            fieldType.name(),
            signature,
            options.minSimilarity(),
            fieldType.lsh(),
            options.candidates() == MinHashQueryOptions.Candidates.SCAN
        );
    }
}
