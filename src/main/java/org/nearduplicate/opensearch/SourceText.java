package org.nearduplicate.opensearch;

import org.opensearch.ingest.ConfigurationUtils;
import org.opensearch.ingest.IngestDocument;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The text the {@code minhash} and {@code imatch} processors read: one or more source fields, strings or lists of
 * strings, joined by blank lines (the same rules as the {@code simhash} processor).
 */
final class SourceText {
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

    /** The joined text, or null when every field is missing and {@code ignoreMissing}. */
    static String read(IngestDocument document, List<String> fields, boolean ignoreMissing, String what) {
        StringBuilder content = new StringBuilder();
        boolean found = false;
        for (String field : fields) {
            Object value = document.getFieldValue(field, Object.class, ignoreMissing);
            if (value == null) {
                if (ignoreMissing) continue;
                throw new IllegalArgumentException("field [" + field + "] is null, cannot compute " + what);
            }
            found = true;
            if (value instanceof String text) {
                separate(content).append(text);
            } else if (value instanceof List<?> list) {
                for (Object element : list) {
                    if (element == null) continue;
                    if (element instanceof String text) separate(content).append(text);
                    else throw new IllegalArgumentException(
                        "field [" + field + "] holds a list with a value of type [" + typeName(element) + "], expected strings"
                    );
                }
            } else {
                throw new IllegalArgumentException(
                    "field [" + field + "] is of type [" + typeName(value) + "], expected a string (text or HTML) or a list of strings"
                );
            }
        }
        return found ? content.toString() : null;
    }

    private static StringBuilder separate(StringBuilder content) {
        if (content.length() > 0) content.append("\n\n");
        return content;
    }

    private static String typeName(Object value) {
        if (value instanceof Map) return "object";
        if (value instanceof Number) return "number";
        if (value instanceof Boolean) return "boolean";
        return value.getClass().getSimpleName();
    }

    /** The engine names the option in brackets at the start of its messages: {@code [hashes] ...}. */
    static String optionNamedIn(String message) {
        if (message != null && message.startsWith("[")) {
            int end = message.indexOf(']');
            if (end > 1) return message.substring(1, end);
        }
        return "settings";
    }
}
