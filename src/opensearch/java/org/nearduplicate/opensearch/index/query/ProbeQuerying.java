package org.nearduplicate.opensearch.index.query;

import org.apache.lucene.search.Query;

import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.Writeable;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.index.mapper.MappedFieldType;

import java.io.IOException;

import org.nearduplicate.opensearch.common.ShardContext;

/**
 * The method-specific part of a probe query ({@link ProbeQueryBuilder}): its name, its options (parsed, checked,
 * written, rendered) and the Lucene query of a resolved probe, e.g. {@code SimHashQuerying}.
 *
 * @param <P> the method's probe
 * @param <O> the method's options, immutable
 * @param <F> the method's field type
 */
public interface ProbeQuerying<P extends Probe<?, P>, O extends ProbeQuerying.Options, F extends MappedFieldType> extends ProbeMethod<P> {
    /** The options of a query that names none. */
    O defaultOptions();

    O readOptions(StreamInput in) throws IOException;

    /** Collects the options while the query's object is parsed. */
    OptionsParser<O> optionsParser();

    /** What a parse that failed with {@code e} (outside the probe's and the options' own 400s) throws. */
    default RuntimeException parseFailure(XContentParser parser, IllegalArgumentException e) {
        return e;
    }

    /** Why a query cannot be sent yet, e.g. {@code [like] document not fetched yet}. */
    String unresolved();

    /** What the rewrite does that the query needs, e.g. {@code to fetch its [like] document}. */
    String rewriteFirst();

    /**
     * The field the query targets, or null when it is not mapped.
     *
     * @throws RuntimeException the shard's failure if it has another type
     */
    F targetField(ShardContext context, String field, String owner);

    /** The Lucene query of the probe on {@code fieldType}, the type of the query's {@code field}. */
    Query toQuery(ShardContext context, String field, F fieldType, P probe, O options);

    /** Collects a method's options while the query's object is parsed. */
    public interface OptionsParser<O> {
        /**
         * Consumes the value of {@code name} if it is one of the options; the parser is on the value's first token,
         * which may be an object or an array (an option that takes values only answers false, and the query refuses it).
         */
        boolean parse(String name, XContentParser parser) throws IOException;

        /** The options collected, checked; a 400 if they are invalid. */
        O build(XContentParser parser);
    }

    /** A method's query options: immutable, and written and rendered by themselves. */
    interface Options extends Writeable {
        /** Renders the options into the query's object, after the probe and before {@code ignore_unmapped}. */
        void toXContent(XContentBuilder builder) throws IOException;
    }
}
