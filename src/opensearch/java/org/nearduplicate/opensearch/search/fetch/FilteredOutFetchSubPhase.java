package org.nearduplicate.opensearch.search.fetch;

import org.apache.lucene.index.LeafReaderContext;

import org.opensearch.common.document.DocumentField;
import org.opensearch.search.fetch.FetchContext;
import org.opensearch.search.fetch.FetchSubPhase;
import org.opensearch.search.fetch.FetchSubPhaseProcessor;
import org.opensearch.search.rescore.RescoreContext;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.nearduplicate.opensearch.index.query.ProbeRescoring;
import org.nearduplicate.opensearch.search.rescore.ProbeRescorer;
import org.nearduplicate.opensearch.search.rescore.RescoreScoreMode;

/**
 * Marks the placeholder hits of the {@code near_duplicate} and {@code minhash_similar} rescorers in {@code filter}
 * mode with {@value ProbeRescorer#FILTERED_OUT_FIELD}{@code : [true]}: a hit that does not pass a filter rescorer of
 * the request is only returned because a shard must return one hit (see {@link ProbeRescorer}). The plugin's
 * {@code FilteredOutHitsActionFilter} removes the marked hits from search responses; anywhere it does not apply (a
 * scroll's later pages), the mark is in plain sight.
 */
public final class FilteredOutFetchSubPhase implements FetchSubPhase {

    @Override
    public FetchSubPhaseProcessor getProcessor(FetchContext context) {
        List<ProbeRescorer.Context> filters = new ArrayList<>();
        if (context.rescore() != null) {
            for (RescoreContext rescore : context.rescore()) {
                if (rescore instanceof ProbeRescorer.Context ctx && ctx.scoreMode() == RescoreScoreMode.FILTER) {
                    filters.add(ctx);
                }
            }
        }
        return filters.isEmpty() ? null : new Processor(filters.toArray(new ProbeRescorer.Context[0]));
    }

    private static final class Processor implements DocValuesFetchProcessor {
        private static final DocumentField MARK = new DocumentField(ProbeRescorer.FILTERED_OUT_FIELD, List.of(true));
        private final ProbeRescorer.Context[] filters;
        private final ProbeRescoring.LeafCloseness[] leaves;
        private LeafReaderContext leaf;
        private int lastDoc = -1;

        Processor(ProbeRescorer.Context[] filters) {
            this.filters = filters;
            this.leaves = new ProbeRescoring.LeafCloseness[filters.length];
        }

        @Override
        public void setNextReader(LeafReaderContext readerContext) throws IOException {
            leaf = readerContext;
            open();
        }

        private void open() throws IOException {
            for (int i = 0; i < filters.length; i++) {
                leaves[i] = filters[i].leaf(leaf);
            }
        }

        @Override
        public void process(HitContext hitContext) throws IOException {
            int doc = hitContext.docId();
            if (doc <= lastDoc) {
                open(); // doc values only move forward; re-open for an out-of-order (or repeated) hit
            }
            lastDoc = doc;
            int topLevelDoc = leaf.docBase + doc;
            for (int i = 0; i < filters.length; i++) {
                // only the hits the rescorer checked (restored for the fetch phase from the query phase's rescore doc
                // ids): inner hits of the same request (nested documents, children) were never filtered
                if (filters[i].isRescored(topLevelDoc) && Float.isNaN(leaves[i].closeness(doc))) {
                    hitContext.hit().setDocumentField(MARK.getName(), MARK);
                    return;
                }
            }
        }
    }
}
