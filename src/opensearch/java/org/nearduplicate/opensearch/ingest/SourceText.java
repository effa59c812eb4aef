package org.nearduplicate.opensearch.ingest;

import org.opensearch.ingest.ConfigurationUtils;
import org.opensearch.ingest.IngestDocument;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.nearduplicate.core.EngineInputException;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.options.InvalidOptionException;

/**
 * The text the {@code simhash}, {@code minhash} and {@code imatch} processors read: one or more source fields,
 * strings or lists of strings, joined by blank lines.
 */
final class SourceText {
    /** Between fields, and between the strings of a list: a paragraph break. */
    static final String SEPARATOR = "\n\n";

    private SourceText() {}

    /** Reads {@code field} or {@code fields} from a processor configuration. */
    static List<String> readFields(String type, String tag, Map<String, Object> config) {
        if (config.containsKey("field") && config.containsKey("fields")) {
            throw ConfigurationUtils.newConfigurationException(type, tag, "fields", "use either [field] or [fields], not both");
        }
        if (config.containsKey("fields")) {
            List<String> fields = ConfigurationUtils.readList(type, tag, config, "fields");
            if (fields.isEmpty()) throw ConfigurationUtils.newConfigurationException(type, tag, "fields", "must list at least one field");
            for (Object field : fields) {
                if (field instanceof String == false || ((String) field).isEmpty()) {
                    throw ConfigurationUtils.newConfigurationException(type, tag, "fields", "must be a list of field names");
                }
            }
            return List.copyOf(fields);
        }
        return new ArrayList<>(List.of(ConfigurationUtils.readStringProperty(type, tag, config, "field")));
    }

    /**
     * The joined text, or null when every field is missing and {@code ignoreMissing}. The length is checked against
     * {@code maxChars} before the values are copied into one string, so an oversized document costs no extra memory.
     */
    static String read(IngestDocument document, List<String> fields, boolean ignoreMissing, String what, int maxChars) {
        List<Object> values = new ArrayList<>(fields.size());
        long length = 0;
        for (String field : fields) {
            Object value = document.getFieldValue(field, Object.class, ignoreMissing);
            if (value == null) {
                if (ignoreMissing) continue;
                throw new IllegalArgumentException("field [" + field + "] is null, cannot compute " + what);
            }
            length += textLength(field, value);
            values.add(value);
        }
        if (values.isEmpty()) {
            return null;
        }
        length -= SEPARATOR.length(); // none before the first value
        if (length > maxChars) {
            throw new EngineInputException(
                "content of " + fields + " has " + length + " chars, more than [" + SimHashSettings.MAX_INPUT_CHARS + "] = " + maxChars
            );
        }
        StringBuilder content = new StringBuilder((int) Math.max(0, length));
        for (Object value : values) {
            if (value instanceof String text) {
                separate(content).append(text);
            } else {
                for (Object element : (List<?>) value) {
                    if (element != null) separate(content).append((String) element);
                }
            }
        }
        return content.toString();
    }

    /** The chars a value adds, separators included; rejects what is not a string or a list of strings. */
    private static long textLength(String field, Object value) {
        if (value instanceof String text) {
            return SEPARATOR.length() + text.length();
        }
        if (value instanceof List<?> list) {
            long length = 0;
            for (Object element : list) {
                if (element == null) continue;
                if (element instanceof String text) {
                    length += SEPARATOR.length() + text.length();
                } else {
                    throw new IllegalArgumentException(
                        "field [" + field + "] holds a list with a value of type [" + typeName(element) + "], expected strings"
                    );
                }
            }
            return length;
        }
        throw new IllegalArgumentException(
            "field [" + field + "] is of type [" + typeName(value) + "], expected a string (text or HTML) or a list of strings"
        );
    }

    private static StringBuilder separate(StringBuilder content) {
        if (content.length() > 0) content.append(SEPARATOR);
        return content;
    }

    private static String typeName(Object value) {
        if (value instanceof Map) return "object";
        if (value instanceof Number) return "number";
        if (value instanceof Boolean) return "boolean";
        return value.getClass().getSimpleName();
    }

    /**
     * The configuration error of a processor for an engine option's {@code IllegalArgumentException}: an
     * {@link InvalidOptionException} names its option (the platform prefixes {@code [option]} itself, so the message is
     * its problem alone); any other is reported against {@code settings}.
     */
    static RuntimeException configurationError(String type, String tag, IllegalArgumentException e) {
        if (e instanceof InvalidOptionException invalid) {
            return ConfigurationUtils.newConfigurationException(type, tag, invalid.option(), invalid.problem());
        }
        return ConfigurationUtils.newConfigurationException(type, tag, "settings", e.getMessage() == null ? "invalid" : e.getMessage());
    }
}
