package org.nearduplicate.orchestration.groups;

import org.apache.lucene.util.IntroSorter;

import java.util.Arrays;

/** A singleton page's window of documents to write: sequence number, global document and fingerprint; every growth reserved first. */
public final class SingletonCandidates {
    private static final long BYTES = 8 + 4 + 8;
    private final Reservation reservation;
    private long[] seqNos = new long[0];
    private int[] docs = new int[0];
    private long[] fingerprints = new long[0];
    private int size;

    public SingletonCandidates(Reservation reservation) {
        this.reservation = reservation;
    }

    public void add(long seqNo, int doc, long fingerprint) {
        if (size == seqNos.length) {
            int capacity = Math.max(16, size + (size >> 1));
            reservation.reserve(BYTES * capacity, "a singleton page's window");
            seqNos = Arrays.copyOf(seqNos, capacity);
            docs = Arrays.copyOf(docs, capacity);
            fingerprints = Arrays.copyOf(fingerprints, capacity);
            reservation.release(BYTES * size);
        }
        seqNos[size] = seqNo;
        docs[size] = doc;
        fingerprints[size++] = fingerprint;
    }

    public int size() {
        return size;
    }

    public long seqNo(int i) {
        return seqNos[i];
    }

    public int doc(int i) {
        return docs[i];
    }

    public long fingerprint(int i) {
        return fingerprints[i];
    }

    public void clear() {
        size = 0;
    }

    public void truncate(int n) {
        size = n;
    }

    public void release() {
        reservation.release(BYTES * seqNos.length);
    }

    public void sortBySeqNo() {
        new IntroSorter() {
            private long pivot;

            @Override
            protected void setPivot(int i) {
                pivot = seqNos[i];
            }

            @Override
            protected int comparePivot(int j) {
                return Long.compare(pivot, seqNos[j]);
            }

            @Override
            protected int compare(int i, int j) {
                return Long.compare(seqNos[i], seqNos[j]);
            }

            @Override
            protected void swap(int i, int j) {
                long s = seqNos[i];
                seqNos[i] = seqNos[j];
                seqNos[j] = s;
                int d = docs[i];
                docs[i] = docs[j];
                docs[j] = d;
                long f = fingerprints[i];
                fingerprints[i] = fingerprints[j];
                fingerprints[j] = f;
            }
        }.sort(0, size);
    }
}
