package org.nearduplicate.elasticsearch.action.simhash;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.elasticsearch.action.ActionListener;
import org.elasticsearch.action.ActionRunnable;
import org.elasticsearch.action.support.ActionFilters;
import org.elasticsearch.action.support.HandledTransportAction;
import org.elasticsearch.common.util.concurrent.EsExecutors;
import org.elasticsearch.injection.guice.Inject;
import org.elasticsearch.tasks.Task;
import org.elasticsearch.threadpool.ThreadPool;
import org.elasticsearch.transport.TransportService;
import org.nearduplicate.core.SimHashSettings;
import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.core.sketch.Analysis;
import org.nearduplicate.core.sketch.Signature;
import org.nearduplicate.elasticsearch.sketching.SketchingService;

/**
 * {@code _simhash} without an index ({@link SimHashAction}): fingerprints the inputs with the request's settings on the
 * search pool of the node that received it. {@link #analyze} is shared with {@link TransportIndexSimHashAction}.
 */
public class TransportSimHashAction extends HandledTransportAction<SimHashRequest, SimHashResponse> {

    private final SketchingService engine;
    private final ThreadPool threadPool;

    @Inject
    public TransportSimHashAction(
        TransportService transportService,
        ActionFilters actionFilters,
        ThreadPool threadPool,
        SketchingService engine
    ) {
        super(SimHashAction.NAME, transportService, actionFilters, SimHashRequest::new, EsExecutors.DIRECT_EXECUTOR_SERVICE);
        this.engine = engine;
        this.threadPool = threadPool;
    }

    @Override
    protected void doExecute(Task task, SimHashRequest request, ActionListener<SimHashResponse> listener) {
        SimHashSettings settings;
        BlockLayout layout;
        try {
            settings = request.simHashSettings(engine);
            layout = request.layout();
        } catch (Exception e) {
            listener.onFailure(e);
            return;
        }
        analyze(threadPool, engine, request, settings, layout, listener);
    }

    /** Fingerprinting is CPU work on possibly large pages: it runs on the search pool, not on a network thread. */
    static void analyze(
        ThreadPool threadPool,
        SketchingService engine,
        SimHashRequest request,
        SimHashSettings settings,
        BlockLayout layout,
        ActionListener<SimHashResponse> listener
    ) {
        threadPool.executor(ThreadPool.Names.SEARCH)
            .execute(ActionRunnable.supply(listener, () -> compute(engine, request, settings, layout)));
    }

    /** The response to {@code request}, fingerprinted with {@code settings} and shown with {@code layout} (or no keys). */
    static SimHashResponse compute(SketchingService engine, SimHashRequest request, SimHashSettings settings, BlockLayout layout) {
        // the declared type (text or html) counts as it does for a probe of the query, so both show one fingerprint
        SimHashRequest.Input input = request.input();
        Analysis first = engine.analyze(SketchingService.declared(settings, input.type()), input.content(), request.topFeatures());
        SimHashRequest.Input compare = request.compareInput();
        Analysis second = compare == null
            ? null
            : engine.analyze(SketchingService.declared(settings, compare.type()), compare.content(), request.topFeatures());
        return new SimHashResponse(
            settings.algorithmId(),
            layout == null ? null : new SimHashResponse.Layout(layout.blocks(), layout.maxDistance(), layout.keyCount()),
            request.includeText(),
            result(first, layout, request.includeText()),
            second == null ? null : result(second, layout, request.includeText()),
            second == null || layout == null ? null : sharedKeys(layout, first.fingerprint(), second.fingerprint())
        );
    }

    static SimHashResponse.Result result(Analysis analysis, BlockLayout layout, boolean includeText) {
        List<SimHashResponse.Feature> features = new ArrayList<>(analysis.topFeatures().size());
        for (Analysis.WeightedFeature f : analysis.topFeatures()) {
            features.add(new SimHashResponse.Feature(f.feature(), f.termFrequency(), f.weight()));
        }
        List<String> keys = null;
        if (layout != null) {
            keys = new ArrayList<>();
            for (byte[] key : layout.keys(analysis.fingerprint())) {
                keys.add(layout.keyToString(key));
            }
        }
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
