package org.nearduplicate.orchestration.field;

import java.io.IOException;

/** A document's JSON as a field reads its value, token by token: each platform wraps its own parser. */
public interface ValueReader {
    /** The token the reader stands on. */
    JsonToken token();

    /** Moves to the next token and returns it. */
    JsonToken nextToken() throws IOException;

    /** The key at a {@link JsonToken#FIELD_NAME}. */
    String currentName() throws IOException;

    /** The current token's text. */
    String text() throws IOException;

    /**
     * The integer at a {@link JsonToken#VALUE_NUMBER}: a {@code Long}, or a {@code BigInteger} when it does not fit
     * one; null when the number is not integral.
     */
    Number integer() throws IOException;
}
