package org.nearduplicate.opensearch.ingest;

import org.nearduplicate.opensearch.engine.NearDuplicateEngine;
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

/**
 * The {@code imatch} ingest processor: exact-content keys for {@code term} lookups and {@code collapse}. Writes
 * {@code {"imatch": "<40 hex>", "text": "<40 hex>", "algorithm": "imatch-v1:..."}} into {@code target_field}
 * (default {@code imatch}); map {@code imatch.imatch} and {@code imatch.text} as {@code keyword}.
 */
public final class IMatchProcessor extends AbstractProcessor {
    public static final String TYPE = "imatch";

    private final List<String> fields;
    private final String targetField;
    private final boolean ignoreMissing;
    private final NearDuplicateEngine engine;
    private final IMatchSettings settings;

    IMatchProcessor(String tag, String description, List<String> fields, String targetField, boolean ignoreMissing, NearDuplicateEngine engine,
                    IMatchSettings settings) {
        super(tag, description);
        this.fields = List.copyOf(fields);
        this.targetField = targetField;
        this.ignoreMissing = ignoreMissing;
        this.engine = engine;
        this.settings = settings;
    }

    @Override
    public IngestDocument execute(IngestDocument document) {
        String content = SourceText.read(document, fields, ignoreMissing, "imatch keys", settings.maxInputChars());
        if (content == null) return document;
        IMatcher.Keys keys = engine.iMatch(settings, content);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("imatch", keys.imatch());
        result.put("text", keys.text());
        result.put("algorithm", settings.algorithmId());
        document.setFieldValue(targetField, result);
        return document;
    }

    @Override
    public String getType() {
        return TYPE;
    }

    public static final class Factory implements Processor.Factory {
        private final NearDuplicateEngine engine;

        public Factory(NearDuplicateEngine engine) {
            this.engine = engine;
        }

        @Override
        public IMatchProcessor create(Map<String, Processor.Factory> registry, String tag, String description, Map<String, Object> config) {
            List<String> fields = SourceText.readFields(TYPE, tag, config);
            String targetField = ConfigurationUtils.readStringProperty(TYPE, tag, config, "target_field", "imatch");
            boolean ignoreMissing = ConfigurationUtils.readBooleanProperty(TYPE, tag, config, "ignore_missing", false);
            Map<String, Object> options = new HashMap<>(config);
            IMatchSettings settings;
            try {
                settings = engine.iMatchSettings(options);
            } catch (IllegalArgumentException e) {
                throw SourceText.configurationError(TYPE, tag, e);
            }
            config.keySet().retainAll(options.keySet());
            return new IMatchProcessor(tag, description, fields, targetField, ignoreMissing, engine, settings);
        }
    }
}
