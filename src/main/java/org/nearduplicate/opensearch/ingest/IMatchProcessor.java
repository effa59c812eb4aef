package org.nearduplicate.opensearch.ingest;

import org.nearduplicate.core.IMatchSettings;
import org.nearduplicate.core.sketch.IMatcher;
import org.opensearch.ingest.AbstractProcessor;
import org.opensearch.ingest.ConfigurationUtils;
import org.opensearch.ingest.IngestDocument;
import org.opensearch.ingest.Processor;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code imatch} ingest processor: exact-content keys for {@code term} lookups and {@code collapse}. Writes
 * {@code {"imatch": "<40 hex>", "text": "<40 hex>", "algorithm": "imatch-v1:..."}} into {@code target_field}
 * (default {@code imatch}); map {@code imatch.imatch} and {@code imatch.text} as {@code keyword}.
 */
public final class IMatchProcessor extends AbstractProcessor {
    public static final String TYPE = "imatch";
    private static final Map<String, IMatcher> MATCHERS = new ConcurrentHashMap<>();

    private final List<String> fields;
    private final String targetField;
    private final boolean ignoreMissing;
    private final IMatcher matcher;

    IMatchProcessor(String tag, String description, List<String> fields, String targetField, boolean ignoreMissing, IMatcher matcher) {
        super(tag, description);
        this.fields = List.copyOf(fields);
        this.targetField = targetField;
        this.ignoreMissing = ignoreMissing;
        this.matcher = matcher;
    }

    @Override
    public IngestDocument execute(IngestDocument document) {
        String content = SourceText.read(document, fields, ignoreMissing, "imatch keys", matcher.settings().maxInputChars());
        if (content == null) return document;
        IMatcher.Keys keys = matcher.keys(content);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("imatch", keys.imatch());
        result.put("text", keys.text());
        result.put("algorithm", matcher.settings().algorithmId());
        document.setFieldValue(targetField, result);
        return document;
    }

    @Override
    public String getType() {
        return TYPE;
    }

    public static final class Factory implements Processor.Factory {
        @Override
        public IMatchProcessor create(Map<String, Processor.Factory> registry, String tag, String description, Map<String, Object> config) {
            List<String> fields = SourceText.readFields(TYPE, tag, config);
            String targetField = ConfigurationUtils.readStringProperty(TYPE, tag, config, "target_field", "imatch");
            boolean ignoreMissing = ConfigurationUtils.readBooleanProperty(TYPE, tag, config, "ignore_missing", false);
            Map<String, Object> options = new HashMap<>(config);
            IMatcher matcher;
            try {
                IMatchSettings settings = IMatchSettings.fromMap(options);
                if (MATCHERS.size() > 256) MATCHERS.clear();
                matcher = MATCHERS.computeIfAbsent(settings.algorithmId() + "|" + settings.maxInputChars(), k -> new IMatcher(settings));
            } catch (IllegalArgumentException e) {
                throw ConfigurationUtils.newConfigurationException(TYPE, tag, SourceText.optionNamedIn(e.getMessage()), e.getMessage());
            }
            config.keySet().retainAll(options.keySet());
            return new IMatchProcessor(tag, description, fields, targetField, ignoreMissing, matcher);
        }
    }
}
