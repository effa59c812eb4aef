package org.nearduplicate.opensearch.index.query;

import org.apache.lucene.util.SetOnce;

import org.opensearch.action.get.GetRequest;
import org.opensearch.common.xcontent.support.XContentMapValues;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.common.io.stream.Writeable;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.index.query.QueryRewriteContext;
import org.opensearch.transport.client.Client;

import java.io.IOException;
import java.util.List;
import java.util.function.Supplier;

import org.nearduplicate.opensearch.common.Platform;

/**
 * The {@code like} probe of the queries and rescorers: {@code {"_index": ..., "_id": ..., "routing": ...}}, a stored
 * document whose fingerprint (or signature) in the same field becomes the probe. The document is fetched once, on the
 * coordinating node, while the request is rewritten; shared by {@code near_duplicate} and {@code minhash_similar}.
 */
public record LikeDocument(String index, String id, String routing) implements Writeable {
    public LikeDocument {
        if (index == null || index.isEmpty()) {
            throw new IllegalArgumentException("[like] requires [_index]");
        }
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("[like] requires [_id]");
        }
    }

    /** Turns the one value of the field in the document's _source into a probe; throws IllegalArgumentException. */
    @FunctionalInterface
    public interface SourceValueReader<T> {
        /**
         * @param what  names the document in errors, e.g. {@code [like] document [pages][42]}
         * @param value the field's single, non-null value in _source
         */
        T read(String what, Object value);
    }

    /** As {@link SourceValueReader}, also given the concrete index the document was read from. */
    @FunctionalInterface
    public interface IndexedSourceValueReader<T> {
        T read(String what, String concreteIndex, Object value);
    }

    public LikeDocument(StreamInput in) throws IOException {
        this(in.readString(), in.readString(), in.readOptionalString());
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeString(index);
        out.writeString(id);
        out.writeOptionalString(routing);
    }

    /**
     * Registers the GET of the document with the rewrite and returns what supplies the probe read from {@code field}
     * once it is fetched (null until then).
     */
    public <T> Supplier<T> fetchOnRewrite(QueryRewriteContext context, String field, SourceValueReader<T> reader) {
        return fetchOnRewrite(context, field, (IndexedSourceValueReader<T>) (what, concreteIndex, value) -> reader.read(what, value));
    }

    /** As above; the reader is also given the concrete index the document was read from. */
    public <T> Supplier<T> fetchOnRewrite(QueryRewriteContext context, String field, IndexedSourceValueReader<T> reader) {
        SetOnce<T> fetched = new SetOnce<>();
        context.registerAsyncAction((client, listener) -> fetch(client, field, "[like] document", reader, Platform.map(listener, probe -> {
            fetched.set(probe);
            return null;
        })));
        return fetched::get;
    }

    /** Fetches the document and answers the probe {@code reader} makes of the single value of {@code field} in its _source. */
    public <T> void fetch(Client client, String field, SourceValueReader<T> reader, ActionListener<T> listener) {
        fetch(client, field, "[like] document", reader, listener);
    }

    /** As {@link #fetch(Client, String, SourceValueReader, ActionListener)}; {@code label} names the document in errors. */
    public <T> void fetch(Client client, String field, String label, SourceValueReader<T> reader, ActionListener<T> listener) {
        fetch(client, field, label, (IndexedSourceValueReader<T>) (what, concreteIndex, value) -> reader.read(what, value), listener);
    }

    private <T> void fetch(Client client, String field, String label, IndexedSourceValueReader<T> reader, ActionListener<T> listener) {
        GetRequest request = new GetRequest(index, id);
        request.routing(routing);
        request.fetchSourceContext(Platform.sourceFields(field));
        client.get(request, Platform.delegateFailure(listener, (delegate, response) -> {
            String what = label + " [" + index + "][" + id + "]";
            T probe;
            try {
                if (response.isExists() == false) {
                    throw new IllegalArgumentException(what + " does not exist");
                }
                if (response.isSourceEmpty()) {
                    throw new IllegalArgumentException(what + " has no _source to read field [" + field + "] from");
                }
                probe = reader.read(
                    what,
                    response.getIndex(),
                    singleValue(what, field, XContentMapValues.extractValue(field, response.getSourceAsMap()))
                );
            } catch (Exception e) {
                delegate.onFailure(e);
                return;
            }
            delegate.onResponse(probe);
        }));
    }

    static Object singleValue(String what, String field, Object value) {
        if (value instanceof List<?> list) {
            if (list.size() != 1) {
                throw new IllegalArgumentException(what + " has " + list.size() + " values in field [" + field + "], expected one");
            }
            value = list.get(0);
        }
        if (value == null) {
            throw new IllegalArgumentException(what + " has no value in field [" + field + "]");
        }
        return value;
    }

    public void toXContent(String name, XContentBuilder builder) throws IOException {
        builder.startObject(name);
        builder.field("_index", index);
        builder.field("_id", id);
        if (routing != null) {
            builder.field("routing", routing);
        }
        builder.endObject();
    }

    public static LikeDocument parse(XContentParser parser) throws IOException {
        if (parser.currentToken() != XContentParser.Token.START_OBJECT) {
            throw new ParsingException(parser.getTokenLocation(), "[like] must be an object {\"_index\": ..., \"_id\": ...}");
        }
        String index = null, id = null, routing = null;
        String current = null;
        XContentParser.Token token;
        while ((token = parser.nextToken()) != XContentParser.Token.END_OBJECT) {
            if (token == XContentParser.Token.FIELD_NAME) {
                current = parser.currentName();
            } else if (token.isValue() && "_index".equals(current)) {
                index = parser.text();
            } else if (token.isValue() && "_id".equals(current)) {
                id = parser.text();
            } else if (token.isValue() && "routing".equals(current)) {
                routing = parser.text();
            } else {
                throw new ParsingException(parser.getTokenLocation(), "[like] does not support [" + current + "]");
            }
        }
        try {
            return new LikeDocument(index, id, routing);
        } catch (IllegalArgumentException e) {
            throw new ParsingException(parser.getTokenLocation(), e.getMessage());
        }
    }

    @Override
    public String toString() {
        return "like[" + index + "][" + id + "]";
    }
}
