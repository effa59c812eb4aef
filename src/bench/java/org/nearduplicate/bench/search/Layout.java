package org.nearduplicate.bench.search;

import java.io.*;
import java.nio.file.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

import org.nearduplicate.bench.harness.*;
import org.nearduplicate.core.keys.BlockLayout;
import org.nearduplicate.lucene.SimHashQuery;
import org.nearduplicate.opensearch.index.mapper.SimHashFieldMapper;

import static org.nearduplicate.bench.harness.Report.*;
import static org.nearduplicate.bench.search.SyntheticData.*;

/** check = the mapping's check_bits, -1 for the field's default. Key counts, widths and check bits are BlockLayout's. */
record Layout(int blocks, int k, int check) {
    Layout(int blocks, int k) {
        this(blocks, k, -1);
    }

    String field() {
        return "fp_" + blocks + "_" + k + (check < 0 ? "" : "_c" + check);
    }

    String mapping() {
        return "{\"type\":\"simhash\",\"blocks\":"
            + blocks
            + ",\"max_distance\":"
            + k
            + (check < 0 ? "" : ",\"check_bits\":" + check)
            + "}";
    }

    String describe() {
        return blocks + " blocks, k_max " + k + (check < 0 ? "" : ", check_bits " + check);
    }

    boolean isDefault() {
        return blocks == 4 && k == 3 && check < 0;
    }

    /** the layout the node builds for this mapping */
    BlockLayout layout() {
        return new BlockLayout(blocks, k, check);
    }

    /** the check bits the field resolves to */
    int checkBits() {
        return layout().checkBits();
    }

    /** share of random candidates whose check bits are within k of the probe's */
    static double within(int bits, int k) {
        double w = 0;
        for (int d = 0; d <= Math.min(k, bits); d++)
            w += binom(bits, d);
        return w / Math.pow(2, bits);
    }

    int keys() {
        return layout().keyCount();
    }

    int width(int b) {
        return layout().blockWidth(b);
    }

    /** expected candidates per probe over n random fingerprints: sum over combinations of n / 2^kept bits. */
    double expectedCandidates(long n) {
        int[] combo = new int[blocks - k];
        return combos(0, 0, combo, n);
    }

    private double combos(int from, int depth, int[] combo, long n) {
        if (depth == combo.length) {
            int bits = 0;
            for (int b : combo)
                bits += width(b);
            return n / Math.pow(2, bits);
        }
        double s = 0;
        for (int i = from; i <= blocks - (combo.length - depth); i++) {
            combo[depth] = i;
            s += combos(i + 1, depth + 1, combo, n);
        }
        return s;
    }

    int keyBytes() {
        return layout().keyBytes();
    }

    // --ks: the field the forced scan runs on (a mapping promising k_max 0, so allow_scan at any k > 0 reads every fingerprint)
    static final int SCAN_KMAX = 0;
    static final String SCAN_FIELD = "fps";
    static final String SCAN_MAPPING = "{\"type\":\"simhash\",\"blocks\":4,\"max_distance\":" + SCAN_KMAX + "}";
    /** the layout of the default mapping {"type":"simhash"} (the --ks field fp), as SimHashFieldMapper builds it */
    static final BlockLayout DEFAULT_LAYOUT = new BlockLayout(SimHashFieldMapper.DEFAULT_BLOCKS, SimHashFieldMapper.DEFAULT_MAX_DISTANCE);

    /** keys a query at distance k probes on the default layout (SimHashQuery.checkProbeKeys: BlockLayout.probeKeyCount) */
    static long defaultProbeKeys(int k) {
        return SimHashQuery.checkProbeKeys(DEFAULT_LAYOUT, k, 1);
    }

    /** The default mapping's layout as the tables name it, read from the plugin's BlockLayout. */
    static String defaultLayoutText() {
        return DEFAULT_LAYOUT.blocks() + " blocks, k_max " + DEFAULT_LAYOUT.maxDistance() + ", check_bits " + DEFAULT_LAYOUT.checkBits();
    }

    /**
     * The path the default field's query for one probe at distance k takes on a segment of maxDoc documents: the very
     * query the node builds (no allow_scan, k within the mapping), asked its own cost model (SimHashQuery.scanIsCheaper).
     */
    static boolean defaultFieldScans(int k, long maxDoc) {
        return new SimHashQuery("fp", 0L, k, DEFAULT_LAYOUT, false).scanIsCheaper(Math.toIntExact(maxDoc));
    }

    /** The path the default field's query takes on one segment of {@code maxDoc} documents when the node's column cache is on. */
    static String defaultFieldPath(int k, long maxDoc) {
        return new SimHashQuery("fp", 0L, k, DEFAULT_LAYOUT, false).path(Math.toIntExact(maxDoc), true)
            .name()
            .toLowerCase(java.util.Locale.ROOT);
    }

    static long binom(int n, int k) {
        long r = 1;
        for (int i = 1; i <= k; i++)
            r = r * (n - k + i) / i;
        return r;
    }
}
