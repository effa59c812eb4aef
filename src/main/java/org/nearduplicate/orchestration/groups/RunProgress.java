package org.nearduplicate.orchestration.groups;

/**
 * The progress of a groups run as its task shows it: the phase, the table passes done, the fingerprints passed over in
 * the current one, and the documents read; the grouping's progress in documents follows from them.
 */
public final class RunProgress implements Grouping.Progress {
    private volatile String phase = "starting";
    private volatile int tablesDone;
    private volatile int tablesTotal;
    /** Distinct fingerprints passed over in the current table, of {@link #withinTotal}. */
    private volatile long withinDone;
    private volatile long withinTotal;
    /** Documents with a fingerprint read from the shards; -1 until they all answered. */
    private volatile long documentsTotal = -1;
    private volatile boolean grouped;

    @Override
    public void phase(String phase) {
        if (this.phase.startsWith("grouping") && phase.startsWith("grouping") == false) {
            grouped = true; // the grouping is over: every document read was scanned
        }
        this.phase = phase;
    }

    @Override
    public void tables(int done, int total) {
        withinDone = 0;
        tablesDone = done;
        tablesTotal = total;
    }

    @Override
    public void withinTable(long done, long total) {
        withinTotal = total;
        withinDone = done;
    }

    @Override
    public void documents(long total) {
        documentsTotal = total;
    }

    public String phase() {
        return phase;
    }

    public int tablesDone() {
        return tablesDone;
    }

    public int tablesTotal() {
        return tablesTotal;
    }

    /** Documents with a fingerprint read from the shards; -1 until they all answered. */
    public long documentsTotal() {
        return documentsTotal;
    }

    /**
     * The grouping's progress in documents: the share of its table passes done (the current one by the fingerprints
     * passed over), times the documents read; -1 before the documents are known.
     */
    public long documentsScanned() {
        long total = documentsTotal;
        if (total < 0) return -1;
        int tables = tablesTotal;
        if (grouped || tables == 0) return grouped ? total : 0;
        long within = withinTotal;
        double share = (tablesDone + (within > 0 ? Math.min(1.0, (double) withinDone / within) : 0.0)) / tables;
        return Math.min(total, (long) (share * total));
    }
}
