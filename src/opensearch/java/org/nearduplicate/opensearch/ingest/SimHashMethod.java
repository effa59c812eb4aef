package org.nearduplicate.opensearch.ingest;

import java.util.LinkedHashMap;
import java.util.Map;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.keys.StoredKeys;
import org.nearduplicate.core.sketch.Fingerprints;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.core.sketch.SimHasher;
import org.nearduplicate.core.sketch.SketchValues;
import org.nearduplicate.opensearch.sketching.SketchingService;

/**
 * The {@code simhash} ingest processor: fingerprints the text or HTML of one or more fields and writes
 * {@code {"fingerprint": "<16 hex digits>", "algorithm": "<version and settings>"}} into {@code target_field}
 * (default {@code simhash}), from {@code simhash-v4} with the {@code signature} and from {@code simhash-v7} with the
 * candidate {@code keys} ({@link StoredKeys}).
 *
 * <p>The block keys are not written here: the {@code simhash} field type derives them from the fingerprint with
 * the block layout of its mapping, so that the layout lives in one place that indexing and querying both read.
 */
public final class SimHashMethod extends NamedSketchMethod {
    public static final String TYPE = "simhash";
    public static final String FINGERPRINT_KEY = SketchValues.FINGERPRINT;
    public static final String ALGORITHM_KEY = SketchValues.ALGORITHM;

    public SimHashMethod(SketchingService sketching) {
        super(sketching, TYPE, "simhash", "a simhash fingerprint");
    }

    /** Engine options are validated by {@link SimHashSettings#fromMap}. */
    @Override
    public Sketcher sketcher(Map<String, Object> options) {
        SimHashSettings settings = sketching.settings(SimHasher.SKETCHER, options);
        String algorithm = settings.algorithmId();
        return new Sketcher(settings.maxInputChars(), content -> {
            Map<String, Object> result = new LinkedHashMap<>();
            SimHash sketch = sketching.sketch(SimHasher.SKETCHER, settings, content);
            result.put(FINGERPRINT_KEY, Fingerprints.toHex(sketch.fingerprint()));
            if (sketch.hasSignature()) result.put(SketchValues.SIGNATURE, Signature.toHex(sketch.signature()));
            String keys = StoredKeys.of(settings, sketch); // from simhash-v7, out of the same signing pass
            if (keys != null) result.put(SketchValues.KEYS, keys);
            result.put(ALGORITHM_KEY, algorithm);
            return result;
        });
    }
}
