package org.nearduplicate.opensearch;

import org.nearduplicate.core.Fingerprints;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.SimHasher;
import org.opensearch.ingest.AbstractProcessor;
import org.opensearch.ingest.ConfigurationUtils;
import org.opensearch.ingest.IngestDocument;
import org.opensearch.ingest.Processor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code simhash} ingest processor: fingerprints the text or HTML of one or more fields and writes
 * {@code {"fingerprint": "<16 hex digits>", "algorithm": "<version and settings>"}} into {@code target_field}.
 *
 * <p>The block keys are not written here: the {@code simhash} field type derives them from the fingerprint with
 * the block layout of its mapping, so that the layout lives in one place that indexing and querying both read.
 */
public final class SimHashProcessor extends AbstractProcessor {
    public static final String TYPE = "simhash";
    public static final String FINGERPRINT_KEY = "fingerprint";
    public static final String ALGORITHM_KEY = "algorithm";

    private final List<String> fields;
    private final String targetField;
    private final boolean ignoreMissing;
    private final SimHasherCache hashers;
    private final SimHashSettings settings;
    private final String algorithm;

    SimHashProcessor(
        String tag,
        String description,
        List<String> fields,
        String targetField,
        boolean ignoreMissing,
        SimHasherCache hashers,
        SimHashSettings settings
    ) {
        super(tag, description);
        this.fields = List.copyOf(fields);
        this.targetField = targetField;
        this.ignoreMissing = ignoreMissing;
        this.hashers = hashers;
        this.settings = settings;
        this.algorithm = settings.algorithmId();
    }

    @Override
    public IngestDocument execute(IngestDocument document) {
        List<Object> values = new ArrayList<>(fields.size());
        long length = 0;
        for (String field : fields) {
            Object value = document.getFieldValue(field, Object.class, ignoreMissing);
            if (value == null) {
                if (ignoreMissing) {
                    continue;
                }
                throw new IllegalArgumentException("field [" + field + "] is null, cannot compute a simhash fingerprint");
            }
            length += textLength(field, value);
            values.add(value);
        }
        if (values.isEmpty()) {
            return document; // ignore_missing: none of the fields is present
        }
        length -= 2; // no separator before the first value
        // checked before the fields are copied into one string: an oversized document costs no extra memory
        if (length > settings.maxInputChars()) {
            throw new org.nearduplicate.core.SimHashException(
                "content of " + fields + " has " + length + " chars, more than [" + SimHashSettings.MAX_INPUT_CHARS + "] = "
                    + settings.maxInputChars()
            );
        }
        StringBuilder content = new StringBuilder((int) Math.max(0, length));
        for (Object value : values) {
            appendText(value, content);
        }
        long fingerprint = hashers.fingerprint(settings, content.toString());
        Map<String, Object> result = new LinkedHashMap<>();
        result.put(FINGERPRINT_KEY, Fingerprints.toHex(fingerprint));
        result.put(ALGORITHM_KEY, algorithm);
        document.setFieldValue(targetField, result);
        return document;
    }

    /** Checks the value's type and returns the chars it adds (with the blank-line separators). */
    private static long textLength(String field, Object value) {
        if (value instanceof String text) {
            return text.length() + 2L;
        } else if (value instanceof List<?> list) {
            long length = 0;
            for (Object element : list) {
                if (element == null) {
                    continue;
                }
                if (element instanceof String text) {
                    length += text.length() + 2L;
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

    /** Strings are taken as they are; a list of strings is joined by blank lines, like several fields. */
    private static void appendText(Object value, StringBuilder content) {
        if (value instanceof String text) {
            separate(content).append(text);
        } else {
            for (Object element : (List<?>) value) {
                if (element != null) {
                    separate(content).append((String) element);
                }
            }
        }
    }

    private static StringBuilder separate(StringBuilder content) {
        if (content.length() > 0) {
            content.append("\n\n");
        }
        return content;
    }

    private static String typeName(Object value) {
        if (value instanceof Map) return "object";
        if (value instanceof Number) return "number";
        if (value instanceof Boolean) return "boolean";
        return value.getClass().getSimpleName();
    }

    @Override
    public String getType() {
        return TYPE;
    }

    List<String> fields() {
        return fields;
    }

    String targetField() {
        return targetField;
    }

    SimHasher hasher() {
        return hashers.get(settings);
    }

    SimHashSettings settings() {
        return settings;
    }

    /** Reads the processor's options; engine options are validated by {@link SimHashSettings#fromMap}. */
    public static final class Factory implements Processor.Factory {
        private final SimHasherCache hashers;

        public Factory(SimHasherCache hashers) {
            this.hashers = hashers;
        }

        @Override
        public SimHashProcessor create(
            Map<String, Processor.Factory> registry,
            String tag,
            String description,
            Map<String, Object> config
        ) {
            List<String> fields;
            if (config.containsKey("field") && config.containsKey("fields")) {
                throw ConfigurationUtils.newConfigurationException(TYPE, tag, "fields", "use either [field] or [fields], not both");
            } else if (config.containsKey("fields")) {
                fields = ConfigurationUtils.readList(TYPE, tag, config, "fields");
                if (fields.isEmpty()) {
                    throw ConfigurationUtils.newConfigurationException(TYPE, tag, "fields", "must list at least one field");
                }
                for (Object field : fields) {
                    if (field instanceof String == false || ((String) field).isEmpty()) {
                        throw ConfigurationUtils.newConfigurationException(TYPE, tag, "fields", "must be a list of field names");
                    }
                }
            } else {
                fields = new ArrayList<>(List.of(ConfigurationUtils.readStringProperty(TYPE, tag, config, "field")));
            }
            String targetField = ConfigurationUtils.readStringProperty(TYPE, tag, config, "target_field", "simhash");
            boolean ignoreMissing = ConfigurationUtils.readBooleanProperty(TYPE, tag, config, "ignore_missing", false);
            SimHashSettings settings;
            Map<String, Object> engineOptions = new HashMap<>(config);
            try {
                settings = hashers.withNodeLimits(
                    SimHashSettings.fromMap(engineOptions),
                    config.get(SimHashSettings.MAX_INPUT_CHARS) != null,
                    config.get(SimHashSettings.MAX_FEATURES) != null
                );
            } catch (IllegalArgumentException e) {
                throw ConfigurationUtils.newConfigurationException(TYPE, tag, optionNamedIn(e.getMessage()), e.getMessage());
            }
            // only the options the engine consumed are removed, so the pipeline reports the rest as unknown
            config.keySet().retainAll(engineOptions.keySet());
            return new SimHashProcessor(tag, description, fields, targetField, ignoreMissing, hashers, settings);
        }

        /** The engine names the option in brackets at the start of its messages: {@code [weighting] ...}. */
        private static String optionNamedIn(String message) {
            if (message != null && message.startsWith("[")) {
                int end = message.indexOf(']');
                if (end > 1) {
                    return message.substring(1, end);
                }
            }
            return "settings";
        }
    }
}
