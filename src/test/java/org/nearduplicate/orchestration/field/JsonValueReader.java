package org.nearduplicate.orchestration.field;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;

import java.io.IOException;
import java.io.UncheckedIOException;

/** A {@link ValueReader} over a JSON text, standing on its first token, as a field mapper reads a document's value. */
final class JsonValueReader implements ValueReader {
    private final JsonParser parser;

    JsonValueReader(String json) {
        try {
            parser = new JsonFactory().createParser(json);
            parser.nextToken();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public JsonToken token() {
        com.fasterxml.jackson.core.JsonToken token = parser.currentToken();
        if (token == null) return null;
        return switch (token) {
            case START_OBJECT -> JsonToken.START_OBJECT;
            case END_OBJECT -> JsonToken.END_OBJECT;
            case START_ARRAY -> JsonToken.START_ARRAY;
            case END_ARRAY -> JsonToken.END_ARRAY;
            case FIELD_NAME -> JsonToken.FIELD_NAME;
            case VALUE_STRING -> JsonToken.VALUE_STRING;
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> JsonToken.VALUE_NUMBER;
            case VALUE_TRUE, VALUE_FALSE -> JsonToken.VALUE_BOOLEAN;
            case VALUE_NULL -> JsonToken.VALUE_NULL;
            default -> JsonToken.VALUE_EMBEDDED_OBJECT;
        };
    }

    @Override
    public JsonToken nextToken() throws IOException {
        parser.nextToken();
        return token();
    }

    @Override
    public String currentName() throws IOException {
        return parser.currentName();
    }

    @Override
    public String text() throws IOException {
        return parser.getText();
    }

    @Override
    public Number integer() throws IOException {
        return switch (parser.getNumberType()) {
            case INT, LONG -> parser.getLongValue();
            case BIG_INTEGER -> parser.getBigIntegerValue();
            default -> null;
        };
    }
}
