package org.nearduplicate.lucene;

import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.TermState;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.ArrayUtil;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.LSBRadixSorter;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The probes' candidate keys ({@code core.keys.CandidateKeys}: one term per key, docs only) found in one segment's terms
 * dictionary, and the documents that share at least {@code minShared} of them with one probe: the candidates of the
 * candidate-key path of {@link SimHashQuery}.
 *
 * <p>Sorted mode (the usual one): each probe's keys' postings are copied into one array and counted window by window
 * of doc ids ({@link ProbeCounter}); a document holding at least {@code minShared} of them is a candidate for that
 * probe, and the candidates of all probes are kept as {@code doc << 32 | probe}, sorted by doc, so a document is
 * verified only against the probes it shares enough keys with ({@link Candidates#eligible}); their fingerprints can be
 * read in one pass before scoring ({@link Candidates#retainNear}). At 10M documents with the public corpus's background
 * sharing (31,000 postings per probe) copying and sorting halved the path's time against a heap merge and made a
 * 100-probe batch 4x faster; counting by windows instead of a radix sort, and the fingerprints read up front, took
 * about 30 % more off a probe (bench/results/RESULTS-keys-path.md). Memory: no per-document array; a probe's copied
 * postings stay under {@link #EAGER_MAX_POSTINGS} doc ids (4 MB), the candidates under {@link #MAX_SORTED_CANDIDATES}
 * (8 MB, 16 MB with their fingerprints) and the window's counts under 256 KB. Beyond either bound (a common key's long
 * postings, a large batch at one shared key) the keys' postings are merged lazily by doc id instead (a heap over the
 * keys, counting per document each probe's keys; short postings copied up to the same bound, long ones through their
 * own {@link PostingsEnum}): memory O(keys), however large the segment.
 */
final class SharedKeyPostings {
    /** A key's postings up to this many are copied (one enum reused for all); a longer one is read lazily (heap mode). */
    static final int EAGER_MAX_DOC_FREQ = 1 << 16;
    /** The copied postings of one probe (sorted mode) or of all probes (heap mode) stay under this many doc ids (4 MB). */
    static final int EAGER_MAX_POSTINGS = 1 << 20;
    /** The sorted candidates ({@code doc << 32 | probe}) of one query and segment stay under this many (8 MB). */
    static final int MAX_SORTED_CANDIDATES = 1 << 20;

    private final TermsEnum termsEnum;
    /** The found keys, in term order, with their term states, document frequencies and the probes that hold them. */
    private final BytesRef[] terms;
    private final TermState[] states;
    private final int[] docFreqs;
    private final int[][] owners;
    private final int probes;
    private final long cost;

    private SharedKeyPostings(
        TermsEnum termsEnum,
        BytesRef[] terms,
        TermState[] states,
        int[] docFreqs,
        int[][] owners,
        int probes,
        long cost
    ) {
        this.termsEnum = termsEnum;
        this.terms = terms;
        this.states = states;
        this.docFreqs = docFreqs;
        this.owners = owners;
        this.probes = probes;
        this.cost = cost;
    }

    /**
     * The probes' keys present in {@code terms}, or {@code null} when no document of the segment can share
     * {@code minShared} keys with a probe (fewer of that probe's keys are in the segment).
     *
     * @param probeKeys per probe, its keys concatenated ({@code keyBytes} each); every probe has keys
     */
    static SharedKeyPostings seek(Terms terms, byte[][] probeKeys, int keyBytes, int minShared) throws IOException {
        if (terms == null) return null;
        // every (key, probe), in term order; a key held by several probes is looked up once
        record Owned(BytesRef key, int probe) {
        }
        List<Owned> all = new ArrayList<>();
        for (int p = 0; p < probeKeys.length; p++) {
            for (int offset = 0; offset < probeKeys[p].length; offset += keyBytes) {
                all.add(new Owned(new BytesRef(probeKeys[p], offset, keyBytes), p));
            }
        }
        if (probeKeys.length > 1) all.sort((a, b) -> a.key.compareTo(b.key));
        TermsEnum termsEnum = terms.iterator();
        List<BytesRef> found = new ArrayList<>();
        List<TermState> states = new ArrayList<>();
        List<int[]> owners = new ArrayList<>();
        int[] foundPerProbe = new int[probeKeys.length];
        int[] docFreqs = new int[all.size()];
        for (int i = 0, j; i < all.size(); i = j) {
            j = i + 1;
            while (j < all.size() && all.get(j).key.equals(all.get(i).key))
                j++;
            if (termsEnum.seekExact(all.get(i).key) == false) continue;
            int[] owning = new int[j - i];
            for (int o = i; o < j; o++) {
                owning[o - i] = all.get(o).probe;
                foundPerProbe[all.get(o).probe]++;
            }
            docFreqs[found.size()] = termsEnum.docFreq();
            found.add(all.get(i).key);
            states.add(termsEnum.termState());
            owners.add(owning);
        }
        // a key whose probes all hold fewer than minShared keys in this segment proposes no candidate
        int n = 0;
        long cost = 0;
        for (int t = 0; t < found.size(); t++) {
            int[] owning = owners.get(t);
            int kept = 0;
            for (int p : owning)
                if (foundPerProbe[p] >= minShared) kept++;
            if (kept == 0) continue;
            int[] useful = kept == owning.length ? owning : new int[kept];
            if (useful != owning) {
                kept = 0;
                for (int p : owning)
                    if (foundPerProbe[p] >= minShared) useful[kept++] = p;
            }
            found.set(n, found.get(t));
            states.set(n, states.get(t));
            owners.set(n, useful);
            docFreqs[n] = docFreqs[t];
            cost += docFreqs[n];
            n++;
        }
        if (n == 0) return null;
        return new SharedKeyPostings(
            termsEnum,
            found.subList(0, n).toArray(new BytesRef[0]),
            states.subList(0, n).toArray(new TermState[0]),
            Arrays.copyOf(docFreqs, n),
            owners.subList(0, n).toArray(new int[0][]),
            probeKeys.length,
            cost
        );
    }

    /** Total postings of the found keys: an upper bound of the candidates. */
    long cost() {
        return cost;
    }

    /** How many of the probes' keys the segment holds (after dropping the keys that cannot reach the minimum). */
    int foundKeys() {
        return terms.length;
    }

    /** The documents sharing at least {@code minShared} keys with some probe, in doc id order. */
    Candidates candidates(int minShared) throws IOException {
        return candidates(minShared, EAGER_MAX_DOC_FREQ, EAGER_MAX_POSTINGS);
    }

    /** {@link #candidates(int)} with other bounds of the copied postings (tests: every key lazy, or a mix). */
    Candidates candidates(int minShared, int eagerMaxDocFreq, int eagerMaxPostings) throws IOException {
        return new Candidates(this, minShared, eagerMaxDocFreq, eagerMaxPostings);
    }

    /**
     * How many keys of each probe document {@code doc} holds (explain: one document, so each key's postings are
     * advanced to it).
     */
    int[] sharedPerProbe(int doc) throws IOException {
        int[] shared = new int[probes];
        PostingsEnum postings = null;
        for (int t = 0; t < terms.length; t++) {
            termsEnum.seekExact(terms[t], states[t]);
            postings = termsEnum.postings(postings, PostingsEnum.NONE);
            if (postings.advance(doc) == doc) {
                for (int p : owners[t])
                    shared[p]++;
            }
        }
        return shared;
    }

    /**
     * The candidates: a merge of the keys' postings by doc id that stops at documents where some probe's count reaches
     * the minimum. {@link #eligible()} and {@link #eligibleCount()} name those probes for the current document.
     */
    static final class Candidates extends DocIdSetIterator {
        private final int minShared;
        private final int[][] owners;
        private final long cost;
        /** Per key: its copied postings ({@code copied[from[t]..to[t])}) or its enum ({@code lazy[t]}, null when copied). */
        private final int[] copied;
        private final int[] next;
        private final int[] to;
        private final PostingsEnum[] lazy;
        /** Per key: its current document. */
        private final int[] current;
        /** The keys not exhausted, as a min-heap on {@code current}. */
        private final int[] heap;
        private int heapSize;
        /** Per probe: its keys counted at the current document; the probes touched, to reset them. */
        private final int[] counts;
        private final int[] touched;
        private final int[] eligible;
        private int eligibleCount;
        private int doc = -1;
        /**
         * The sorted mode: every candidate as {@code doc << 32 | probe}, by doc then probe, and the first entry not
         * consumed ({@code sortedAt}); null: the heap merges the keys.
         */
        private final long[] sorted;
        private int sortedSize;
        private int sortedAt;
        /** The sorted mode after {@link #retainNear}: each entry's fingerprint; and the current document's. */
        private long[] sortedValues;
        private long value;

        private Candidates(SharedKeyPostings keys, int minShared, int eagerMaxDocFreq, int eagerMaxPostings) throws IOException {
            this.minShared = minShared;
            this.owners = keys.owners;
            this.cost = keys.cost;
            this.eligible = new int[keys.probes];
            int n = keys.terms.length;
            long[] pairs = sortedCandidates(keys, minShared, eagerMaxDocFreq, eagerMaxPostings);
            if (pairs != null) {
                this.sorted = pairs;
                this.sortedSize = sortedCount;
                this.copied = null;
                this.next = this.to = this.current = this.heap = this.counts = this.touched = null;
                this.lazy = null;
                return;
            }
            this.sorted = null;
            this.sortedSize = 0;
            this.next = new int[n];
            this.to = new int[n];
            this.lazy = new PostingsEnum[n];
            this.current = new int[n];
            this.heap = new int[n];
            this.counts = new int[keys.probes];
            this.touched = new int[keys.probes];
            long eager = 0;
            boolean[] copy = new boolean[n];
            for (int t = 0; t < n; t++) {
                if (keys.docFreqs[t] <= eagerMaxDocFreq && eager + keys.docFreqs[t] <= eagerMaxPostings) {
                    copy[t] = true;
                    eager += keys.docFreqs[t];
                }
            }
            this.copied = new int[(int) eager];
            PostingsEnum reused = null;
            int filled = 0;
            for (int t = 0; t < n; t++) {
                keys.termsEnum.seekExact(keys.terms[t], keys.states[t]);
                if (copy[t]) {
                    reused = keys.termsEnum.postings(reused, PostingsEnum.NONE);
                    next[t] = filled;
                    for (int d = reused.nextDoc(); d != NO_MORE_DOCS; d = reused.nextDoc()) {
                        copied[filled++] = d;
                    }
                    to[t] = filled;
                } else {
                    lazy[t] = keys.termsEnum.postings(null, PostingsEnum.NONE);
                }
                int first = nextOf(t);
                if (first != NO_MORE_DOCS) {
                    current[t] = first;
                    heap[heapSize++] = t;
                }
            }
            for (int i = heapSize / 2 - 1; i >= 0; i--)
                siftDown(i);
        }

        /** Entries of {@link #sortedCandidates}'s answer (a constructor's scratch: set just before it returns). */
        private int sortedCount;

        /**
         * Per probe, its keys' postings copied into one array and counted per document
         * ({@link ProbeCounter}); the candidates of every probe, sorted by doc. Null when a probe's postings exceed the
         * bounds or the candidates {@link #MAX_SORTED_CANDIDATES}: the heap merges them lazily instead. Per posting this
         * costs a copy and two passes instead of the heap's log(keys) steps (a 100-probe batch read 31,000 postings per
         * probe through a heap of 2,800 keys at ~100 ns each: bench/keys_path.sh).
         */
        private long[] sortedCandidates(SharedKeyPostings keys, int minShared, int eagerMaxDocFreq, int eagerMaxPostings)
            throws IOException {
            int n = keys.terms.length;
            int[] termCount = new int[keys.probes];
            long[] postingsOf = new long[keys.probes];
            for (int t = 0; t < n; t++) {
                if (keys.docFreqs[t] > eagerMaxDocFreq) return null;
                for (int p : keys.owners[t]) {
                    termCount[p]++;
                    postingsOf[p] += keys.docFreqs[t];
                }
            }
            int most = 0;
            for (long count : postingsOf) {
                if (count > eagerMaxPostings) return null;
                most = (int) Math.max(most, count);
            }
            int[][] termsOf = new int[keys.probes][];
            for (int p = 0; p < keys.probes; p++)
                termsOf[p] = new int[termCount[p]];
            int[] filledTerms = new int[keys.probes];
            for (int t = 0; t < n; t++)
                for (int p : keys.owners[t])
                    termsOf[p][filledTerms[p]++] = t;
            int[] scratch = new int[most];
            ProbeCounter counter = new ProbeCounter(n);
            PostingsEnum reused = null;
            for (int p = 0; p < keys.probes; p++) {
                if (termsOf[p].length < minShared) continue;
                int filled = 0, lists = 0;
                for (int t : termsOf[p]) {
                    keys.termsEnum.seekExact(keys.terms[t], keys.states[t]);
                    reused = keys.termsEnum.postings(reused, PostingsEnum.NONE);
                    counter.from[lists] = filled;
                    for (int d = reused.nextDoc(); d != NO_MORE_DOCS; d = reused.nextDoc()) {
                        scratch[filled++] = d;
                    }
                    if (filled > counter.from[lists]) counter.to[lists++] = filled;
                }
                if (counter.count(scratch, lists, minShared, p) == false) return null;
            }
            long[] out = counter.candidates;
            int size = counter.size;
            if (keys.probes > 1) Arrays.sort(out, 0, size);
            sortedCount = size;
            return out;
        }

        /** The next candidate at or after {@code target} of the sorted mode, with its probes. */
        private int nextSorted(int target) {
            int i = sortedAt;
            if (i < sortedSize && (int) (sorted[i] >>> 32) < target) {
                int lo = i, hi = sortedSize; // the first entry whose doc is at or after target
                while (lo < hi) {
                    int mid = (lo + hi) >>> 1;
                    if ((int) (sorted[mid] >>> 32) < target) lo = mid + 1;
                    else hi = mid;
                }
                i = lo;
            }
            eligibleCount = 0;
            if (i == sortedSize) {
                sortedAt = i;
                return NO_MORE_DOCS;
            }
            int d = (int) (sorted[i] >>> 32);
            if (sortedValues != null) value = sortedValues[i];
            while (i < sortedSize && (int) (sorted[i] >>> 32) == d)
                eligible[eligibleCount++] = (int) sorted[i++];
            sortedAt = i;
            return d;
        }

        /**
         * Sorted mode, before the first document: reads every candidate's fingerprint from {@code values} (unpositioned,
         * read forward once, in doc order) in one tight pass, and keeps only the entries whose probe is within
         * {@code maxDistance} of it (a document without a value is dropped): the verification's first test, done up
         * front where the reads of successive candidates overlap in memory instead of one per scorer step.
         * {@link #value()} then gives the current document's fingerprint. False in heap mode ({@code values} untouched).
         */
        boolean retainNear(NumericDocValues values, long[] fingerprints, int maxDistance) throws IOException {
            if (sorted == null || sortedAt != 0 || sortedValues != null) return false;
            long[] kept = new long[sortedSize];
            int size = 0, last = -1;
            boolean has = false;
            long v = 0;
            for (int i = 0; i < sortedSize; i++) {
                long entry = sorted[i];
                int d = (int) (entry >>> 32);
                if (d != last) {
                    last = d;
                    has = values.advanceExact(d);
                    v = has ? values.longValue() : 0;
                }
                if (has && Long.bitCount(v ^ fingerprints[(int) entry]) <= maxDistance) {
                    sorted[size] = entry;
                    kept[size++] = v;
                }
            }
            sortedSize = size;
            sortedValues = kept;
            return true;
        }

        /** Whether {@link #retainNear} read the candidates' fingerprints ({@link #value()}). */
        boolean hasValues() {
            return sortedValues != null;
        }

        /** The current document's fingerprint, after {@link #retainNear}. */
        long value() {
            return value;
        }

        /** The probes that share at least the minimum of keys with the current document (the first {@link #eligibleCount}). */
        int[] eligible() {
            return eligible;
        }

        int eligibleCount() {
            return eligibleCount;
        }

        @Override
        public int docID() {
            return doc;
        }

        @Override
        public int nextDoc() throws IOException {
            if (sorted != null) return doc = nextSorted(0);
            return doc = collect();
        }

        @Override
        public int advance(int target) throws IOException {
            if (sorted != null) return doc = nextSorted(target);
            while (heapSize > 0 && current[heap[0]] < target) {
                int t = heap[0];
                int d = lazy[t] != null ? lazy[t].advance(target) : copiedAtOrAfter(t, target);
                replaceTop(t, d);
            }
            return doc = collect();
        }

        @Override
        public long cost() {
            return cost;
        }

        /** The next document at the heap's top where some probe reaches the minimum; consumes it. */
        private int collect() throws IOException {
            while (heapSize > 0) {
                int d = current[heap[0]];
                int touchedCount = 0;
                eligibleCount = 0;
                do {
                    int t = heap[0];
                    for (int p : owners[t]) {
                        if (counts[p] == 0) touched[touchedCount++] = p;
                        if (++counts[p] == minShared) eligible[eligibleCount++] = p;
                    }
                    replaceTop(t, nextOf(t));
                } while (heapSize > 0 && current[heap[0]] == d);
                for (int i = 0; i < touchedCount; i++)
                    counts[touched[i]] = 0;
                if (eligibleCount > 0) return d;
            }
            eligibleCount = 0;
            return NO_MORE_DOCS;
        }

        private int nextOf(int t) throws IOException {
            if (lazy[t] != null) return lazy[t].nextDoc();
            return next[t] < to[t] ? copied[next[t]++] : NO_MORE_DOCS;
        }

        private int copiedAtOrAfter(int t, int target) {
            int i = next[t];
            while (i < to[t] && copied[i] < target)
                i++;
            next[t] = i < to[t] ? i + 1 : i;
            return i < to[t] ? copied[i] : NO_MORE_DOCS;
        }

        /** Key {@code t} (the heap's top) moved to {@code d}: back into the heap, or out when exhausted. */
        private void replaceTop(int t, int d) {
            if (d == NO_MORE_DOCS) {
                heap[0] = heap[--heapSize];
            } else {
                current[t] = d;
            }
            if (heapSize > 0) siftDown(0);
        }

        private void siftDown(int i) {
            int t = heap[i];
            int d = current[t];
            while (true) {
                int child = 2 * i + 1;
                if (child >= heapSize) break;
                if (child + 1 < heapSize && current[heap[child + 1]] < current[heap[child]]) child++;
                if (current[heap[child]] >= d) break;
                heap[i] = heap[child];
                i = child;
            }
            heap[i] = t;
        }
    }

    /**
     * Counts, for one probe, how many of its keys' postings hold each document, and appends the documents held at least
     * {@code minShared} times, in doc order, as {@code doc << 32 | probe}. Each key's postings are a sorted run of the
     * copy; the runs are read window by window of up to 2^18 documents (as Lucene's BooleanScorer does), counting in a
     * byte array of the window that stays in the L2 cache, so nothing is sorted but the few candidates of a window.
     * Smaller windows cost more per run and window (a mispredicted exit each), larger ones leave the cache. At 10M
     * documents this counts a probe's 31,000 postings in 80-95 % of the time of a radix sort and a count of its runs in
     * the path, 60 % in a standalone loop (bench/results/RESULTS-keys-path.md, "Where one probe's time goes"). Reused
     * for every probe of a query.
     */
    static final class ProbeCounter {
        static final int MAX_WINDOW_BITS = 18;
        /** A window's candidates up to this many are sorted by {@code Arrays.sort}, more by {@link #sortWindow}. */
        private static final int SORT_OUTRIGHT = 64;
        private final LSBRadixSorter sorter = new LSBRadixSorter();
        private int[] offsets = new int[0];
        /** Per run (a key's postings): where it starts and ends in the copy, and how far it is read. */
        final int[] from;
        final int[] to;
        private final int[] at;
        private byte[] counts = new byte[0];
        long[] candidates = new long[16];
        int size;

        /** @param maxRuns most keys of one probe */
        ProbeCounter(int maxRuns) {
            this.from = new int[maxRuns];
            this.to = new int[maxRuns];
            this.at = new int[maxRuns];
        }

        /**
         * Appends the candidates of {@code runs} sorted runs {@code docs[from[r]..to[r])} (postings of distinct keys of
         * {@code probe}); false when they would exceed {@link #MAX_SORTED_CANDIDATES}.
         */
        boolean count(int[] docs, int runs, int minShared, int probe) {
            if (runs < minShared) return true;
            int next = Integer.MAX_VALUE, last = 0, postings = 0; // the smallest unread doc of any run, the largest doc
            for (int r = 0; r < runs; r++) {
                at[r] = from[r];
                if (from[r] < to[r]) {
                    next = Math.min(next, docs[from[r]]);
                    last = Math.max(last, docs[to[r] - 1]);
                    postings += to[r] - from[r];
                }
            }
            // a window as wide as the documents seen, up to 2^MAX_WINDOW_BITS, and at most 16 counts per posting (fewer
            // bytes to allocate and clear for few postings)
            int widest = Math.min(last, Math.min(1 << MAX_WINDOW_BITS, Math.max(1024, postings << 4)) - 1);
            int window = Integer.highestOneBit(Math.max(1, widest)) << 1;
            if (counts.length < window) counts = new byte[window];
            byte[] count = counts;
            while (next != Integer.MAX_VALUE) {
                int base = next & -window, end = (int) Math.min((long) base + window, Integer.MAX_VALUE), first = size;
                next = Integer.MAX_VALUE;
                for (int r = 0; r < runs; r++) {
                    int i = at[r], e = to[r];
                    for (; i < e; i++) {
                        int d = docs[i];
                        if (d >= end) {
                            next = Math.min(next, d);
                            break;
                        }
                        if (++count[d - base] == minShared && add(d, probe) == false) return false;
                    }
                    at[r] = i;
                }
                for (int r = 0; r < runs; r++) // clear what this window counted: each run's docs before end
                    for (int i = at[r] - 1; i >= from[r] && docs[i] >= base; i--)
                        count[docs[i] - base] = 0;
                if (size - first > SORT_OUTRIGHT) sortWindow(first, base, window, probe);
                else if (size - first > 1) Arrays.sort(candidates, first, size);
            }
            return true;
        }

        /**
         * Sorts the many candidates of one window ({@code candidates[first..size)}, one probe): by a radix sort of their
         * offsets in the window, as {@code Arrays.sort} of thousands of longs per window (one shared key: most postings
         * are candidates) costs several times more.
         */
        private void sortWindow(int first, int base, int window, int probe) {
            int n = size - first;
            if (offsets.length < n) offsets = new int[ArrayUtil.oversize(n, Integer.BYTES)];
            for (int i = 0; i < n; i++)
                offsets[i] = (int) (candidates[first + i] >>> 32) - base;
            sorter.sort(32 - Integer.numberOfLeadingZeros(window - 1), offsets, n);
            for (int i = 0; i < n; i++)
                candidates[first + i] = (long) (base + offsets[i]) << 32 | probe;
        }

        private boolean add(int doc, int probe) {
            if (size == MAX_SORTED_CANDIDATES) return false;
            if (size == candidates.length) candidates = ArrayUtil.grow(candidates, size + 1);
            candidates[size++] = (long) doc << 32 | probe;
            return true;
        }
    }
}
