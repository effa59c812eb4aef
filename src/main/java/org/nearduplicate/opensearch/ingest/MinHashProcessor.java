package org.nearduplicate.opensearch.ingest;

import org.nearduplicate.opensearch.engine.NearDuplicateEngine;
import org.nearduplicate.opensearch.index.mapper.MinHashFieldMapper;
import org.nearduplicate.core.MinHashSettings;
import org.nearduplicate.core.sketch.MinHashSignatures;
import org.opensearch.ingest.AbstractProcessor;
import org.opensearch.ingest.ConfigurationUtils;
import org.opensearch.ingest.IngestDocument;
import org.opensearch.ingest.Processor;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code minhash} ingest processor: writes {@code {"signature": "<base64 of m big-endian ints>", "algorithm":
 * "minhash-v1:..."}} into {@code target_field} (default {@code minhash}), for a {@code minhash} field.
 */
public final class MinHashProcessor extends AbstractProcessor {
    public static final String TYPE = "minhash";

    private final List<String> fields;
    private final String targetField;
    private final boolean ignoreMissing;
    private final NearDuplicateEngine engine;
    private final MinHashSettings settings;

    MinHashProcessor(String tag, String description, List<String> fields, String targetField, boolean ignoreMissing, NearDuplicateEngine engine,
                     MinHashSettings settings) {
        super(tag, description);
        this.fields = List.copyOf(fields);
        this.targetField = targetField;
        this.ignoreMissing = ignoreMissing;
        this.engine = engine;
        this.settings = settings;
    }

    @Override
    public IngestDocument execute(IngestDocument document) {
        String content = SourceText.read(document, fields, ignoreMissing, "a minhash signature", settings.features().maxInputChars());
        if (content == null) return document;
        Map<String, Object> result = new LinkedHashMap<>();
        result.put(MinHashFieldMapper.OBJECT_SIGNATURE, MinHashSignatures.toBase64(engine.minHash(settings, content)));
        result.put(MinHashFieldMapper.OBJECT_ALGORITHM, settings.algorithmId());
        document.setFieldValue(targetField, result);
        return document;
    }

    @Override
    public String getType() {
        return TYPE;
    }

    MinHashSettings settings() {
        return settings;
    }

    public static final class Factory implements Processor.Factory {
        private final NearDuplicateEngine engine;

        public Factory(NearDuplicateEngine engine) {
            this.engine = engine;
        }

        @Override
        public MinHashProcessor create(Map<String, Processor.Factory> registry, String tag, String description, Map<String, Object> config) {
            List<String> fields = SourceText.readFields(TYPE, tag, config);
            String targetField = ConfigurationUtils.readStringProperty(TYPE, tag, config, "target_field", "minhash");
            boolean ignoreMissing = ConfigurationUtils.readBooleanProperty(TYPE, tag, config, "ignore_missing", false);
            Map<String, Object> options = new HashMap<>(config);
            MinHashSettings settings;
            try {
                settings = engine.minHashSettings(options);
            } catch (IllegalArgumentException e) {
                throw SourceText.configurationError(TYPE, tag, e);
            }
            config.keySet().retainAll(options.keySet()); // the rest is reported as unknown by the pipeline
            return new MinHashProcessor(tag, description, fields, targetField, ignoreMissing, engine, settings);
        }
    }
}
