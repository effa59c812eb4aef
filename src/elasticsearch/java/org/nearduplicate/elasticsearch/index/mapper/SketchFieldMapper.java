package org.nearduplicate.elasticsearch.index.mapper;

import org.apache.lucene.index.IndexableField;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

import org.elasticsearch.common.lucene.Lucene;
import org.elasticsearch.core.Nullable;
import org.elasticsearch.index.analysis.NamedAnalyzer;
import org.elasticsearch.index.mapper.DocumentParserContext;
import org.elasticsearch.index.mapper.FieldMapper;
import org.elasticsearch.index.mapper.MappedFieldType;
import org.elasticsearch.index.mapper.MapperParsingException;
import org.elasticsearch.index.mapper.SourceValueFetcher;
import org.elasticsearch.index.mapper.TextSearchInfo;
import org.elasticsearch.index.mapper.ValueFetcher;
import org.elasticsearch.index.query.SearchExecutionContext;
import org.elasticsearch.xcontent.XContentBuilder;
import org.elasticsearch.xcontent.XContentParser;
import org.nearduplicate.elasticsearch.sketching.SketchingService;

/**
 * What the fields of every method share, written once so that they cannot drift apart: the {@code algorithm} mapping
 * parameter stored in its canonical form, the object value {@code {"<value key>": ..., "algorithm": ...}} that the
 * method's processor writes and the refusal of a value made by another algorithm, the value fetcher, and the merge
 * builder (the parameters are fixed once the index exists). Each method keeps only what differs: its layout
 * parameters, its value codec ({@link #parseValue}, {@link #parseObjectValue}, {@link #decode}), its index keys and
 * doc values ({@link #indexableFields}) and its Lucene queries (on its field type).
 *
 * @param <R> a value as read from the document, before the field's algorithm checked it
 * @param <V> a value as indexed
 */
public abstract class SketchFieldMapper<R, V> extends FieldMapper {

    /** The mapping parameter and the key of object values naming the algorithm that made a value. */
    public static final String OBJECT_ALGORITHM = "algorithm";

    /**
     * One method's algorithm ids as its fields pin them.
     *
     * @param type the field type's name, also the name of the processor that makes its values ({@code simhash})
     * @param valueKey the key of the value in object values, also its name in messages ({@code fingerprint})
     * @param defaultId the id pinned into a new mapping
     * @param owns whether an id is one of this engine's (parsed and stored canonically); others are kept as given
     * @param parse parses an id of this engine
     * @param id the canonical id of parsed settings
     * @param version the version of parsed settings, named when a value of another algorithm is refused
     * @param <S> the method's parsed settings
     */
    public record Algorithms<S>(String type, String valueKey, String defaultId, Predicate<String> owns, Function<String, S> parse, Function<
        S,
        String> id, ToIntFunction<S> version) {
        /**
         * The stored form of the {@code algorithm} parameter: this engine's ids canonical and complete, so that a
         * short form such as {@code simhash-v1} pins today's defaults and equal algorithms compare equal.
         */
        String canonical(Object value) {
            if (value instanceof String == false || ((String) value).trim().isEmpty()) {
                throw new MapperParsingException("[algorithm] must be a non-empty string, got [" + value + "]");
            }
            String algorithm = ((String) value).trim();
            if (owns.test(algorithm) == false) {
                return algorithm;
            }
            try {
                return id.apply(parse.apply(algorithm));
            } catch (IllegalArgumentException e) {
                throw new MapperParsingException("[algorithm] " + e.getMessage(), e);
            }
        }
    }

    /** The builder of both methods: their layout parameters first, then {@code algorithm} and {@code meta}. */
    public abstract static class Builder<S> extends FieldMapper.Builder {
        // always written into the mapping, so that a later release with other defaults never reinterprets an existing index
        protected final Parameter<String> algorithm;
        protected final Parameter<Map<String, String>> meta = Parameter.metaParam();
        protected final SketchingService engine;
        private final Algorithms<S> algorithms;

        /** {@code engine}: the node's gateway that sketches this field's text probes (null: none). */
        protected Builder(String name, SketchingService engine, Algorithms<S> algorithms) {
            super(name);
            this.engine = engine;
            this.algorithms = algorithms;
            this.algorithm = new Parameter<>(
                OBJECT_ALGORITHM,
                false,
                algorithms::defaultId,
                (n, c, o) -> algorithms.canonical(o),
                m -> ((SketchFieldMapper<?, ?>) m).fieldType().algorithm(),
                XContentBuilder::field,
                Objects::toString
            ).alwaysSerialize();
        }

        /** The method's own parameters, serialized before {@code algorithm} and {@code meta}. */
        protected abstract List<Parameter<?>> layoutParameters();

        @Override
        protected final Parameter<?>[] getParameters() {
            List<Parameter<?>> parameters = new ArrayList<>(layoutParameters());
            parameters.add(algorithm);
            parameters.add(meta);
            return parameters.toArray(new Parameter<?>[0]);
        }

        /** The mapping's layout is not valid: the message names the field. */
        protected final MapperParsingException invalid(IllegalArgumentException e) {
            return new MapperParsingException("invalid [" + algorithms.type() + "] field [" + leafName() + "]: " + e.getMessage(), e);
        }
    }

    /**
     * The field type of both methods: the algorithm id as mapped and its settings, parsed once when the mapping is
     * built, so that queries read the field's defaults without parsing the id again.
     */
    public abstract static class SketchFieldType<S> extends MappedFieldType {
        private final Algorithms<S> algorithms;
        private final String algorithm;
        private final S settings;
        private final SketchingService engine;

        protected SketchFieldType(
            String name,
            Algorithms<S> algorithms,
            String algorithm,
            @Nullable S settings,
            Map<String, String> meta,
            @Nullable SketchingService engine
        ) {
            super(name, true, false, true, TextSearchInfo.NONE, meta);
            this.algorithms = algorithms;
            this.algorithm = Objects.requireNonNull(algorithm);
            this.settings = settings;
            this.engine = engine;
        }

        /** The mapped algorithm id, canonical for this engine's ids. */
        public final String algorithm() {
            return algorithm;
        }

        /** The settings {@link #algorithm()} names, parsed when the mapping was built; null for an id this engine did not make. */
        @Nullable
        public final S settings() {
            return settings;
        }

        /** The node's gateway that sketches text probes for this field; null for a field built outside a node. */
        @Nullable
        protected final SketchingService engine() {
            return engine;
        }

        @Override
        public final String typeName() {
            return algorithms.type();
        }

        /** A value of the source (an object value's {@code valueKey} value) as the {@code fields} option shows it. */
        protected abstract Object fetchedValue(Object sourceValue);

        @Override
        public ValueFetcher valueFetcher(SearchExecutionContext context, String format) {
            if (format != null) {
                throw new IllegalArgumentException("Field [" + name() + "] of type [" + typeName() + "] doesn't support formats.");
            }
            return new SourceValueFetcher(name(), context) {
                @Override
                protected Object parseSourceValue(Object value) {
                    if (value instanceof Map<?, ?> map) {
                        value = map.get(algorithms.valueKey());
                    }
                    return value == null ? null : fetchedValue(value);
                }
            };
        }

        /**
         * The pipeline change that makes this field's algorithm. After an upgrade that changes the default version, a
         * pipeline without {@code version} makes the new one, while indices of the earlier release keep theirs (README
         * "Upgrades").
         */
        final String howToMatch() {
            if (settings == null) {
                return "Make the " + algorithms.valueKey() + "s with the field's algorithm"; // not one of this plugin's ids: made outside
            }
            return "Set [version] to "
                + algorithms.version().applyAsInt(settings)
                + " (and the field's other options) on the "
                + algorithms.type()
                + " processor that feeds it";
        }
    }

    private final Algorithms<?> algorithms;

    protected SketchFieldMapper(String simpleName, SketchFieldType<?> mappedFieldType, BuilderParams params) {
        super(simpleName, mappedFieldType, params);
        this.algorithms = mappedFieldType.algorithms;
    }

    @Override
    public SketchFieldType<?> fieldType() {
        return (SketchFieldType<?>) super.fieldType();
    }

    /** A value given as itself (not null, not an object), e.g. a fingerprint string. */
    protected abstract V parseValue(XContentParser parser) throws IOException;

    /** The value of an object value's {@code valueKey}, at {@code token}; {@link #decode}d once the object is read. */
    protected abstract R parseObjectValue(XContentParser parser, XContentParser.Token token) throws IOException;

    /** The error for key {@code key} of an object value with a value at {@code token} that is not read. */
    protected abstract IllegalArgumentException unexpectedKey(String key, XContentParser.Token token);

    /** An object value's value, once its algorithm is known to be the field's. */
    protected abstract V decode(R value);

    /**
     * Keys of the processor's object besides the value and the algorithm (strings, e.g. SimHash's {@code signature}),
     * read by {@link #decode(Object, Map)}; none by default.
     */
    protected Set<String> extraKeys() {
        return Set.of();
    }

    /** An object value's value with its {@link #extraKeys()} found (absent keys are absent from the map). */
    protected V decode(R value, Map<String, String> extras) {
        return decode(value);
    }

    /** A value given as itself, checked for the field (e.g. that its algorithm needs nothing more); as is by default. */
    protected V checkBareValue(V value) {
        return value;
    }

    /** The Lucene fields of one value: its keys as terms and the value as doc values. */
    protected abstract List<IndexableField> indexableFields(String name, V value);

    /** A builder of the same kind for merges: the parameters are not updateable, so every change is a conflict. */
    protected abstract Builder<?> newBuilder(String simpleName, SketchingService engine);

    @Override
    protected final void parseCreateField(DocumentParserContext context) throws IOException {
        XContentParser parser = context.parser();
        XContentParser.Token token = parser.currentToken();
        if (token == XContentParser.Token.VALUE_NULL) {
            return;
        }
        // errors surface as "failed to parse field [..] of type [..]" with the reason below as the cause
        V value = token == XContentParser.Token.START_OBJECT ? parseObject(parser) : checkBareValue(parseValue(parser));
        String name = fieldType().name();
        if (context.doc().getField(name) != null) {
            throw new IllegalArgumentException(
                "field ["
                    + name
                    + "] of type ["
                    + algorithms.type()
                    + "] takes a single "
                    + algorithms.valueKey()
                    + " per document, got several"
            );
        }
        for (IndexableField field : indexableFields(name, value)) {
            context.doc().add(field);
        }
    }

    /** {@code {"<valueKey>": ..., "algorithm": ...}}: the algorithm, when given, must be the field's. */
    private V parseObject(XContentParser parser) throws IOException {
        String valueKey = algorithms.valueKey();
        Set<String> extraKeys = extraKeys();
        Map<String, String> extras = new HashMap<>();
        R value = null;
        String algorithm = null;
        String current = null;
        XContentParser.Token token;
        while ((token = parser.nextToken()) != XContentParser.Token.END_OBJECT) {
            if (token == XContentParser.Token.FIELD_NAME) {
                current = parser.currentName();
            } else if (valueKey.equals(current)) {
                value = parseObjectValue(parser, token);
            } else if (OBJECT_ALGORITHM.equals(current) && token == XContentParser.Token.VALUE_STRING) {
                algorithm = parser.text();
            } else if (extraKeys.contains(current) && token == XContentParser.Token.VALUE_STRING) {
                extras.put(current, parser.text());
            } else {
                throw unexpectedKey(current, token);
            }
        }
        if (value == null) {
            throw new IllegalArgumentException("object value is missing [" + valueKey + "]");
        }
        String mapped = fieldType().algorithm();
        if (algorithm != null && algorithm.equals(mapped) == false) {
            throw new IllegalArgumentException(
                valueKey
                    + " was made with algorithm ["
                    + algorithm
                    + "] but the field is mapped with algorithm ["
                    + mapped
                    + "]; "
                    + valueKey
                    + "s made differently cannot be compared. "
                    + fieldType().howToMatch()
                    + ", or reindex into a field mapped with algorithm ["
                    + algorithm
                    + "]"
            );
        }
        return decode(value, extras);
    }

    @Override
    public final FieldMapper.Builder getMergeBuilder() {
        return newBuilder(leafName(), fieldType().engine()).init(this);
    }

    @Override
    protected final String contentType() {
        return algorithms.type();
    }

    /**
     * The block keys with check bits are a tokenized field with its own token stream; Elasticsearch's indexing still
     * asks the field's index analyzer (for gaps between values), so the field names the keyword analyzer, which never
     * analyses anything here.
     */
    @Override
    public Map<String, NamedAnalyzer> indexAnalyzers() {
        return Map.of(fullPath(), Lucene.KEYWORD_ANALYZER);
    }
}
