package org.nearduplicate.opensearch.common;

import org.opensearch.core.xcontent.XContentParser;

import java.io.IOException;

import org.nearduplicate.orchestration.field.JsonToken;
import org.nearduplicate.orchestration.field.ValueReader;

/** A document parser as the neutral field code reads values from it. */
public final class XContentValueReader implements ValueReader {
    private final XContentParser parser;

    public XContentValueReader(XContentParser parser) {
        this.parser = parser;
    }

    private static JsonToken token(XContentParser.Token token) {
        return token == null ? null : JsonToken.valueOf(token.name());
    }

    @Override
    public JsonToken token() {
        return token(parser.currentToken());
    }

    @Override
    public JsonToken nextToken() throws IOException {
        return token(parser.nextToken());
    }

    @Override
    public String currentName() throws IOException {
        return parser.currentName();
    }

    @Override
    public String text() throws IOException {
        return parser.text();
    }

    @Override
    public Number integer() throws IOException {
        return switch (parser.numberType()) {
            case INT, LONG -> parser.longValue();
            case BIG_INTEGER -> parser.numberValue();
            default -> null;
        };
    }
}
