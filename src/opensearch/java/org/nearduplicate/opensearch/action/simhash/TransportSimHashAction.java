package org.nearduplicate.opensearch.action.simhash;

import org.opensearch.action.ActionRunnable;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.HandledTransportAction;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.action.ActionListener;
import org.opensearch.tasks.Task;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.TransportService;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.sketch.Analysis;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.core.sketch.SimHash;
import org.nearduplicate.opensearch.common.Platform;
import org.nearduplicate.opensearch.sketching.SketchingService;

/**
 * {@code _simhash} without an index ({@link SimHashAction}): fingerprints the inputs with the request's settings on the
 * search pool of the node that received it. {@link #analyze} is shared with {@link TransportIndexSimHashAction}.
 */
public class TransportSimHashAction extends HandledTransportAction<SimHashRequest, SimHashResponse> {

    private final SketchingService sketching;
    private final ThreadPool threadPool;

    @Inject
    public TransportSimHashAction(
        TransportService transportService,
        ActionFilters actionFilters,
        ThreadPool threadPool,
        SketchingService sketching
    ) {
        super(SimHashAction.NAME, transportService, actionFilters, SimHashRequest::new, Platform.DIRECT_EXECUTOR);
        this.sketching = sketching;
        this.threadPool = threadPool;
    }

    @Override
    protected void doExecute(Task task, SimHashRequest request, ActionListener<SimHashResponse> listener) {
        SimHashSettings settings;
        BlockLayout layout;
        try {
            settings = request.simHashSettings(sketching);
            layout = request.layout();
        } catch (Exception e) {
            listener.onFailure(e);
            return;
        }
        analyze(threadPool, sketching, request, settings, layout, null, null, listener);
    }

    /**
     * Fingerprinting is CPU work on possibly large pages: it runs on the search pool, not on a network thread.
     * {@code storedFirst} and {@code storedSecond} are the stored documents' sketches of the request's {@code id}
     * inputs (null for the others).
     */
    static void analyze(
        ThreadPool threadPool,
        SketchingService sketching,
        SimHashRequest request,
        SimHashSettings settings,
        BlockLayout layout,
        SimHash storedFirst,
        SimHash storedSecond,
        ActionListener<SimHashResponse> listener
    ) {
        threadPool.executor(ThreadPool.Names.SEARCH)
            .execute(ActionRunnable.supply(listener, () -> compute(sketching, request, settings, layout, storedFirst, storedSecond)));
    }

    /** The response to {@code request}, fingerprinted with {@code settings} and shown with {@code layout} (or no keys). */
    static SimHashResponse compute(SketchingService sketching, SimHashRequest request, SimHashSettings settings, BlockLayout layout) {
        return compute(sketching, request, settings, layout, null, null);
    }

    /**
     * As above; {@code storedFirst} and {@code storedSecond} are the sketches of the stored documents the request's
     * {@code id} inputs name (null for an analyzed input). Two analyzed inputs also get the features that differ,
     * computed on their whole feature sets.
     */
    static SimHashResponse compute(
        SketchingService sketching,
        SimHashRequest request,
        SimHashSettings settings,
        BlockLayout layout,
        SimHash storedFirst,
        SimHash storedSecond
    ) {
        SimHashRequest.Input input = request.input();
        SimHashRequest.Input compare = request.compareInput();
        boolean bothAnalyzed = compare != null && input.isStored() == false && compare.isStored() == false;
        // the declared type (text or html) counts as it does for a probe of the query, so both show one fingerprint
        Analysis firstAnalysis = input.isStored() ? null : analyze(sketching, settings, input, request.topFeatures(), bothAnalyzed);
        Analysis secondAnalysis = compare == null || compare.isStored()
            ? null
            : analyze(sketching, settings, compare, request.topFeatures(), bothAnalyzed);
        SimHashResponse.Result first = input.isStored()
            ? stored(input.id(), storedFirst, layout)
            : result(firstAnalysis, layout, request.includeText());
        SimHashResponse.Result second = compare == null ? null
            : compare.isStored() ? stored(compare.id(), storedSecond, layout)
            : result(secondAnalysis, layout, request.includeText());
        return new SimHashResponse(
            settings.algorithmId(),
            layout == null ? null : new SimHashResponse.Layout(layout.blocks(), layout.maxDistance(), layout.keyCount()),
            request.includeText(),
            first,
            second,
            second == null || layout == null ? null : sharedKeys(layout, first.fingerprint(), second.fingerprint()),
            bothAnalyzed ? difference(Analysis.differingFeatures(firstAnalysis, secondAnalysis, request.topFeatures())) : null
        );
    }

    private static Analysis analyze(
        SketchingService sketching,
        SimHashSettings settings,
        SimHashRequest.Input input,
        int topFeatures,
        boolean withFeatures
    ) {
        SimHashSettings declared = SketchingService.declared(settings, input.type());
        return withFeatures
            ? sketching.analyzeWithFeatures(declared, input.content(), topFeatures)
            : sketching.analyze(declared, input.content(), topFeatures);
    }

    /** A stored document's fingerprint, signature and keys. */
    static SimHashResponse.Result stored(String id, SimHash sketch, BlockLayout layout) {
        if (sketch == null) {
            throw new IllegalStateException("document [" + id + "] was not read");
        }
        return SimHashResponse.Result.stored(
            id,
            sketch.fingerprint(),
            sketch.signature() == null ? null : Signature.toHex(sketch.signature()),
            keys(layout, sketch.fingerprint())
        );
    }

    static SimHashResponse.Difference difference(Analysis.Difference difference) {
        return new SimHashResponse.Difference(features(difference.onlyInFirst()), features(difference.onlyInSecond()));
    }

    private static List<SimHashResponse.Feature> features(List<Analysis.WeightedFeature> features) {
        List<SimHashResponse.Feature> out = new ArrayList<>(features.size());
        for (Analysis.WeightedFeature f : features) {
            out.add(new SimHashResponse.Feature(f.feature(), f.termFrequency(), f.weight()));
        }
        return out;
    }

    private static List<String> keys(BlockLayout layout, long fingerprint) {
        if (layout == null) {
            return null;
        }
        List<String> keys = new ArrayList<>();
        for (byte[] key : layout.keys(fingerprint)) {
            keys.add(layout.keyToString(key));
        }
        return keys;
    }

    static SimHashResponse.Result result(Analysis analysis, BlockLayout layout, boolean includeText) {
        List<SimHashResponse.Feature> features = features(analysis.topFeatures());
        List<String> keys = keys(layout, analysis.fingerprint());
        return new SimHashResponse.Result(
            analysis.fingerprint(),
            analysis.contentType().name().toLowerCase(Locale.ROOT),
            analysis.featureCount(),
            includeText ? analysis.mainText() : null,
            features,
            keys,
            analysis.signature() == null ? null : Signature.toHex(analysis.signature())
        );
    }

    private static int sharedKeys(BlockLayout layout, long a, long b) {
        byte[][] keysA = layout.keys(a);
        byte[][] keysB = layout.keys(b);
        int shared = 0;
        for (int c = 0; c < keysA.length; c++) {
            if (Arrays.equals(keysA[c], keysB[c])) {
                shared++;
            }
        }
        return shared;
    }
}
