package org.nearduplicate.opensearch.search.fetch;

import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;

import org.opensearch.common.document.DocumentField;
import org.opensearch.index.query.ParsedQuery;
import org.opensearch.search.fetch.FetchContext;
import org.opensearch.search.fetch.FetchSubPhase;
import org.opensearch.search.fetch.FetchSubPhaseProcessor;
import org.opensearch.search.rescore.RescoreContext;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.nearduplicate.lucene.SimHashQuery;
import org.nearduplicate.opensearch.index.query.simhash.SimHashCloseness;
import org.nearduplicate.opensearch.search.rescore.ProbeRescorer;

/**
 * Adds each hit's Hamming distance to the probe of the request's {@code near_duplicate} query (or rescorer) as the
 * hit field {@value #DISTANCE_FIELD}. A distance is reported only when it is within that query's max_distance
 * (i.e. for the clauses the hit actually matched); with several probes the smallest such distance is reported.
 * When the request targets several simhash fields, {@value #DISTANCE_FIELD}{@code .<field>} holds the distance per
 * field as well. Clauses under {@code must_not} are ignored.
 */
public final class SimHashDistanceFetchSubPhase implements FetchSubPhase {
    public static final String DISTANCE_FIELD = "_near_duplicate_distance";

    /** One probe: the field, the fingerprint and its radius. */
    record Probe(String field, long fingerprint, int maxDistance) {
    }

    @Override
    public FetchSubPhaseProcessor getProcessor(FetchContext context) throws IOException {
        Set<Probe> probes = new LinkedHashSet<>();
        collect(context.query(), probes);
        ParsedQuery postFilter = context.parsedPostFilter();
        if (postFilter != null) {
            collect(postFilter.query(), probes);
        }
        List<RescoreContext> rescorers = context.rescore();
        if (rescorers != null) {
            for (RescoreContext rescore : rescorers) {
                if (rescore instanceof ProbeRescorer.Context ctx && ctx.closeness() instanceof SimHashCloseness c) {
                    probes.add(new Probe(c.field(), c.fingerprint(), c.maxDistance()));
                }
            }
        }
        if (probes.isEmpty()) {
            return null;
        }
        List<String> fields = new ArrayList<>();
        for (Probe probe : probes) {
            if (fields.contains(probe.field()) == false) {
                fields.add(probe.field());
            }
        }
        return new Processor(probes.toArray(new Probe[0]), fields.toArray(new String[0]));
    }

    static void collect(Query query, Set<Probe> probes) {
        if (query == null) {
            return;
        }
        query.visit(new QueryVisitor() {
            @Override
            public void visitLeaf(Query leaf) {
                if (leaf instanceof SimHashQuery q) {
                    for (long fingerprint : q.getFingerprints()) {
                        probes.add(new Probe(q.getField(), fingerprint, q.getMaxDistance()));
                    }
                }
            }

            @Override
            public QueryVisitor getSubVisitor(BooleanClause.Occur occur, Query parent) {
                return occur == BooleanClause.Occur.MUST_NOT ? EMPTY_VISITOR : this;
            }
        });
    }

    private static final class Processor implements DocValuesFetchProcessor {
        private final Probe[] probes;
        private final String[] fields;
        private final int[] probeField;
        private final NumericDocValues[] values;

        Processor(Probe[] probes, String[] fields) {
            this.probes = probes;
            this.fields = fields;
            this.probeField = new int[probes.length];
            for (int i = 0; i < probes.length; i++) {
                for (int f = 0; f < fields.length; f++) {
                    if (fields[f].equals(probes[i].field())) {
                        probeField[i] = f;
                    }
                }
            }
            this.values = new NumericDocValues[fields.length];
        }

        @Override
        public void setNextReader(LeafReaderContext readerContext) throws IOException {
            for (int f = 0; f < fields.length; f++) {
                values[f] = readerContext.reader().getNumericDocValues(fields[f]);
            }
        }

        @Override
        public void process(HitContext hitContext) throws IOException {
            int doc = hitContext.docId();
            long[] fingerprints = new long[fields.length];
            boolean[] present = new boolean[fields.length];
            for (int f = 0; f < fields.length; f++) {
                NumericDocValues dv = values[f];
                if (dv != null && dv.docID() >= doc) {
                    // doc values only move forward; re-open for an out-of-order (or repeated) hit
                    dv = values[f] = hitContext.reader().getNumericDocValues(fields[f]);
                }
                if (dv != null && dv.advanceExact(doc)) {
                    fingerprints[f] = dv.longValue();
                    present[f] = true;
                }
            }
            int best = -1;
            Map<String, Integer> perField = fields.length > 1 ? new LinkedHashMap<>() : null;
            for (int i = 0; i < probes.length; i++) {
                int f = probeField[i];
                if (present[f] == false) {
                    continue;
                }
                int distance = Long.bitCount(fingerprints[f] ^ probes[i].fingerprint());
                if (distance > probes[i].maxDistance()) {
                    continue;
                }
                best = best < 0 ? distance : Math.min(best, distance);
                if (perField != null) {
                    perField.merge(fields[f], distance, Math::min);
                }
            }
            if (best < 0) {
                return;
            }
            hitContext.hit().setDocumentField(DISTANCE_FIELD, new DocumentField(DISTANCE_FIELD, List.of(best)));
            if (perField != null) {
                for (Map.Entry<String, Integer> e : perField.entrySet()) {
                    String name = DISTANCE_FIELD + "." + e.getKey();
                    hitContext.hit().setDocumentField(name, new DocumentField(name, List.of(e.getValue())));
                }
            }
        }
    }
}
