package org.nearduplicate.opensearch.ingest;

import org.nearduplicate.opensearch.engine.NearDuplicateEngine;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.sketch.SimHasher;
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
    private final NearDuplicateEngine engine;
    private final SimHashSettings settings;
    private final String algorithm;

    SimHashProcessor(
        String tag,
        String description,
        List<String> fields,
        String targetField,
        boolean ignoreMissing,
        NearDuplicateEngine engine,
        SimHashSettings settings
    ) {
        super(tag, description);
        this.fields = List.copyOf(fields);
        this.targetField = targetField;
        this.ignoreMissing = ignoreMissing;
        this.engine = engine;
        this.settings = settings;
        this.algorithm = settings.algorithmId();
    }

    @Override
    public IngestDocument execute(IngestDocument document) {
        String content = SourceText.read(document, fields, ignoreMissing, "a simhash fingerprint", settings.maxInputChars());
        if (content == null) {
            return document; // ignore_missing: none of the fields is present
        }
        long fingerprint = engine.simHash(settings, content);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put(FINGERPRINT_KEY, Fingerprints.toHex(fingerprint));
        result.put(ALGORITHM_KEY, algorithm);
        document.setFieldValue(targetField, result);
        return document;
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

    SimHashSettings settings() {
        return settings;
    }

    /** Reads the processor's options; engine options are validated by {@link SimHashSettings#fromMap}. */
    public static final class Factory implements Processor.Factory {
        private final NearDuplicateEngine engine;

        public Factory(NearDuplicateEngine engine) {
            this.engine = engine;
        }

        @Override
        public SimHashProcessor create(
            Map<String, Processor.Factory> registry,
            String tag,
            String description,
            Map<String, Object> config
        ) {
            List<String> fields = SourceText.readFields(TYPE, tag, config);
            String targetField = ConfigurationUtils.readStringProperty(TYPE, tag, config, "target_field", "simhash");
            boolean ignoreMissing = ConfigurationUtils.readBooleanProperty(TYPE, tag, config, "ignore_missing", false);
            SimHashSettings settings;
            Map<String, Object> engineOptions = new HashMap<>(config);
            try {
                settings = engine.simHashSettings(engineOptions);
            } catch (IllegalArgumentException e) {
                throw SourceText.configurationError(TYPE, tag, e);
            }
            // only the options the engine consumed are removed, so the pipeline reports the rest as unknown
            config.keySet().retainAll(engineOptions.keySet());
            return new SimHashProcessor(tag, description, fields, targetField, ignoreMissing, engine, settings);
        }

    }
}
