package org.nearduplicate.orchestration.field;

import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

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
public record SketchAlgorithms<S>(String type, String valueKey, String defaultId, Predicate<String> owns, Function<String, S> parse,
    Function<S, String> id, ToIntFunction<S> version) {

    /**
     * The stored form of the {@code algorithm} parameter: this engine's ids canonical and complete, so that a short form
     * such as {@code simhash-v1} pins today's defaults and equal algorithms compare equal.
     *
     * @throws MappingException for a value that is no algorithm
     */
    public String canonical(Object value) {
        if (value instanceof String == false || ((String) value).trim().isEmpty()) {
            throw new MappingException("[algorithm] must be a non-empty string, got [" + value + "]");
        }
        String algorithm = ((String) value).trim();
        if (owns.test(algorithm) == false) {
            return algorithm;
        }
        try {
            return id.apply(parse.apply(algorithm));
        } catch (IllegalArgumentException e) {
            throw new MappingException("[algorithm] " + e.getMessage(), e);
        }
    }

    /** A field's layout parameters are not valid: the message names the field by its {@code leafName}. */
    public MappingException invalid(String leafName, IllegalArgumentException e) {
        return new MappingException("invalid [" + type + "] field [" + leafName + "]: " + e.getMessage(), e);
    }
}
