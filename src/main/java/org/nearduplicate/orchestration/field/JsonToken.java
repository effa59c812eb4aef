package org.nearduplicate.orchestration.field;

/**
 * The token a JSON parser stands on, named as the platforms' parsers name theirs (messages print the name), so that
 * field values are read the same way on every platform.
 */
public enum JsonToken {
    START_OBJECT,
    END_OBJECT,
    START_ARRAY,
    END_ARRAY,
    FIELD_NAME,
    VALUE_STRING,
    VALUE_NUMBER,
    VALUE_BOOLEAN,
    VALUE_EMBEDDED_OBJECT,
    VALUE_NULL
}
