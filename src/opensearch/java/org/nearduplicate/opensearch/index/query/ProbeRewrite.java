package org.nearduplicate.opensearch.index.query;

import org.opensearch.index.query.QueryRewriteContext;

import java.util.Objects;
import java.util.function.Supplier;

import org.nearduplicate.opensearch.sketching.SketchingService;

/**
 * The one rewrite of a probe, shared by every query and rescorer builder of every method: a {@code like} document is
 * fetched, then a {@code text}/{@code html} probe is sketched once per request on the coordinating node (when the
 * searched indices map the field with one algorithm), so that the shards receive a value probe. Immutable: a builder
 * holds one and, when {@link #rewrite} answers another, returns a copy of itself holding that one.
 */
public final class ProbeRewrite<P extends Probe<?, P>> {
    private final P probe;
    /** What supplies the next probe once the rewrite's asynchronous action is done (null until then); null when none is awaited. */
    private final Supplier<P> pending;
    /** True once the coordinator left a text probe to the shards (several algorithms): it is not looked up again. */
    private final boolean contentLeftToShards;

    private ProbeRewrite(P probe, Supplier<P> pending, boolean contentLeftToShards) {
        this.probe = Objects.requireNonNull(probe, "probe");
        this.pending = pending;
        this.contentLeftToShards = contentLeftToShards;
    }

    /** The state of a probe as parsed, built or received. */
    public static <P extends Probe<?, P>> ProbeRewrite<P> of(P probe) {
        return new ProbeRewrite<>(probe, null, false);
    }

    /** The probe: as given until a rewrite step replaces it. */
    public P probe() {
        return probe;
    }

    /** True while a fetch or the coordinator's sketch is awaited: the builder must not be sent. */
    public boolean isPending() {
        return pending != null;
    }

    /** True until the rewrite is done with a {@code like} probe: the builder cannot make its query or rescorer yet. */
    public boolean mustRewrite() {
        return pending != null || probe.needsFetch();
    }

    /**
     * One step of the rewrite: this instance when nothing changes (or the awaited step is not done yet), otherwise the
     * next state, for a copy of the builder.
     *
     * @param engine the node's engine, or null (the shards then sketch a text probe)
     * @param owner  prefixes the coordinator's 400 errors, e.g. {@code [near_duplicate] rescorer}
     */
    public ProbeRewrite<P> rewrite(QueryRewriteContext context, String field, SketchingService sketching, String owner) {
        if (pending != null) {
            P next = pending.get();
            // a text probe that comes back unchanged was left to the shards
            return next == null ? this : new ProbeRewrite<>(next, null, next.isContent());
        }
        if (probe.needsFetch()) {
            return new ProbeRewrite<>(probe, probe.fetchOnRewrite(context, field), false);
        }
        if (probe.isContent() && contentLeftToShards == false) {
            Supplier<P> sketched = probe.sketchOnCoordinator(context, field, sketching, owner);
            if (sketched != null) {
                return new ProbeRewrite<>(probe, sketched, false);
            }
        }
        return this;
    }

    /** The probe and the awaited step (builders waiting on different fetches differ); not whether a text was left to the shards. */
    @Override
    public boolean equals(Object o) {
        return o instanceof ProbeRewrite<?> that && probe.equals(that.probe) && Objects.equals(pending, that.pending);
    }

    @Override
    public int hashCode() {
        return Objects.hash(probe, pending);
    }

    @Override
    public String toString() {
        return pending == null ? probe.toString() : probe + " (rewriting)";
    }
}
