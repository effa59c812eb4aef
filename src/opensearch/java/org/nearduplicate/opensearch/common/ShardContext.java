package org.nearduplicate.opensearch.common;

import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.Query;

import org.opensearch.index.mapper.IdFieldMapper;
import org.opensearch.index.mapper.MappedFieldType;

import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What the probe queries and rescorers ask of a shard's search context (its mappings, its reader, its errors), so that
 * their code reads the same on both platforms, whose context types differ in name. Each adapter's
 * {@link Platform#shardContext} makes one of its context; the adapter's query and rescorer builder bases hand it over.
 */
public final class ShardContext {
    private final Function<String, MappedFieldType> fieldTypes;
    private final Supplier<String> indexName;
    private final Supplier<IndexReader> indexReader;
    private final BiFunction<MappedFieldType, Object, Query> termQuery;
    private final BiFunction<String, Throwable, RuntimeException> failure;

    /**
     * @param termQuery a field type's query of one value on this shard
     * @param failure   the shard's error of a message and a cause (null: none)
     */
    ShardContext(
        Function<String, MappedFieldType> fieldTypes,
        Supplier<String> indexName,
        Supplier<IndexReader> indexReader,
        BiFunction<MappedFieldType, Object, Query> termQuery,
        BiFunction<String, Throwable, RuntimeException> failure
    ) {
        this.fieldTypes = fieldTypes;
        this.indexName = indexName;
        this.indexReader = indexReader;
        this.termQuery = termQuery;
        this.failure = failure;
    }

    /** The type of a mapped field, or null when the shard's index does not map it. */
    public MappedFieldType fieldType(String field) {
        return fieldTypes.apply(field);
    }

    /** The name of the shard's index. */
    public String indexName() {
        return indexName.get();
    }

    /** The shard's reader, or null when it is not at hand. */
    public IndexReader indexReader() {
        return indexReader.get();
    }

    /** What matches the document of {@code id} on this shard, or null when the index maps no {@code _id}. */
    public Query idQuery(String id) {
        MappedFieldType type = fieldType(IdFieldMapper.NAME);
        return type == null ? null : termQuery.apply(type, id);
    }

    /** The shard's error for a request it cannot answer (a 400 that names the index); {@code cause} may be null. */
    public RuntimeException failure(String message, Throwable cause) {
        return failure.apply(message, cause);
    }

    /** {@link #failure(String, Throwable)} without a cause. */
    public RuntimeException failure(String message) {
        return failure(message, null);
    }
}
