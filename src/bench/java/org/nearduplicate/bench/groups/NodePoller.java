package org.nearduplicate.bench.groups;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.nearduplicate.bench.harness.*;

import static org.nearduplicate.bench.groups.GroupsBench.LOG;

/** Polls the node's stats every pollMs until closed; keeps the maxima. */
final class NodePoller implements AutoCloseable {
    private final NodeClient node;

    final AtomicLong maxHeap = new AtomicLong(), maxHeapPct = new AtomicLong(), maxBreaker = new AtomicLong(), samples = new AtomicLong();
    final ScheduledExecutorService ex = Executors.newSingleThreadScheduledExecutor();
    final Runnable extra;

    /** {@code extra}: runs after every sample (e.g. reads the task's phase), or null. */
    NodePoller(NodeClient node, int pollMs, Runnable extra) {
        this.node = node;
        this.extra = extra;
        ex.scheduleWithFixedDelay(this::poll, 0, pollMs, TimeUnit.MILLISECONDS);
    }

    void poll() {
        try {
            NodeRuns.NodeStats s = NodeRuns.NodeStats.read(node);
            maxHeap.accumulateAndGet(s.heapUsed(), Math::max);
            maxHeapPct.accumulateAndGet(s.heapPercent(), Math::max);
            maxBreaker.accumulateAndGet(s.breaker(), Math::max);
            samples.incrementAndGet();
            if (extra != null) extra.run();
        } catch (Exception e) {
            LOG.log("  stats poll failed: " + e.getMessage());
        }
    }

    @Override
    public void close() throws InterruptedException {
        ex.shutdown();
        ex.awaitTermination(30, TimeUnit.SECONDS);
        poll(); // one last sample after the run
    }
}
