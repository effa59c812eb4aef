package org.nearduplicate.opensearch.ingest;

import org.opensearch.ingest.AbstractProcessor;
import org.opensearch.ingest.IngestDocument;
import org.opensearch.ingest.Processor;

import java.util.Map;

import org.nearduplicate.core.stats.NearDuplicateStats;
import org.nearduplicate.core.window.RecentFingerprints;
import org.nearduplicate.orchestration.check.CheckOptions;
import org.nearduplicate.orchestration.check.NearDuplicateCheck;

/**
 * What both platforms' {@code near_duplicate_check} processors share: the {@link NearDuplicateCheck} they hand their
 * documents to, asynchronously, and their {@link Factory}; how documents come (together or one by one) is each
 * platform's {@code SimHashCheckProcessor}.
 */
public abstract class CheckProcessor extends AbstractProcessor {
    public static final String TYPE = NearDuplicateCheck.TYPE;
    /** Time from a document's check to its being searchable beyond the target's refresh_interval (scheduling, search). */
    public static final long REFRESH_MARGIN_MILLIS = NearDuplicateCheck.REFRESH_MARGIN_MILLIS;

    final NearDuplicateCheck check;

    CheckProcessor(String tag, String description, NearDuplicateCheck check) {
        super(tag, description);
        this.check = check;
    }

    @Override
    public final IngestDocument execute(IngestDocument document) {
        throw new UnsupportedOperationException("[" + TYPE + "] is asynchronous");
    }

    @Override
    public final String getType() {
        return TYPE;
    }

    /** Free search slots (tests). */
    int availableLookups() {
        return check.availableLookups();
    }

    /** Searches waiting for a slot (tests). */
    int queuedLookups() {
        return check.queuedLookups();
    }

    /**
     * Makes the processor ({@code SimHashCheckProcessor.Factory}): reads and validates its options ({@link CheckConfig})
     * and builds its {@link NearDuplicateCheck} on the node's client, scheduler, recent windows and counters.
     */
    public static final class Factory implements Processor.Factory {
        private final Processor.Parameters parameters;
        private final RecentFingerprints.Registry windows;
        private final MappedMaxDistance mappedMaxDistance;
        private final NearDuplicateStats stats;

        /** Without a cluster state: an absent {@code max_distance} is the default of a new field (tests). */
        public Factory(Processor.Parameters parameters, RecentFingerprints.Registry windows) {
            this(parameters, windows, MappedMaxDistance.DEFAULT);
        }

        /** Outcomes not counted (tests). */
        public Factory(Processor.Parameters parameters, RecentFingerprints.Registry windows, MappedMaxDistance mappedMaxDistance) {
            this(parameters, windows, mappedMaxDistance, null);
        }

        /** {@code stats}: the node's counters, told each document's outcome (null: none). */
        public Factory(
            Processor.Parameters parameters,
            RecentFingerprints.Registry windows,
            MappedMaxDistance mappedMaxDistance,
            NearDuplicateStats stats
        ) {
            this.parameters = parameters;
            this.windows = windows;
            this.mappedMaxDistance = mappedMaxDistance;
            this.stats = stats;
        }

        @Override
        public SimHashCheckProcessor create(
            Map<String, Processor.Factory> registry,
            String tag,
            String description,
            Map<String, Object> config
        ) {
            CheckOptions options = CheckOptions.parse(new CheckConfig(tag, config));
            NearDuplicateCheck check = new NearDuplicateCheck(
                options,
                mappedMaxDistance,
                windows,
                stats,
                new TargetSearch(parameters.client),
                CheckConfig.timers(parameters.scheduler)
            );
            return SimHashCheckProcessor.of(tag, description, check, parameters);
        }
    }
}
