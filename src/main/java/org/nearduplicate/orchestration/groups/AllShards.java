package org.nearduplicate.orchestration.groups;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BiConsumer;

/**
 * One read on every shard, answered once all have answered: their answers in arrival order, or the first failure
 * with the later ones suppressed. Each answer is reserved as it arrives; a refused reservation is that shard's failure.
 */
final class AllShards {
    private AllShards() {}

    static void read(
        ShardReads shards,
        BiConsumer<Integer, Listener<ShardAnswer>> read,
        Reservation reservation,
        String what,
        Listener<List<ShardAnswer>> listener
    ) {
        int count = shards.shards();
        if (count <= 0) throw new IllegalArgumentException("expected at least one shard, got " + count);
        AtomicReferenceArray<ShardAnswer> answers = new AtomicReferenceArray<>(count);
        AtomicInteger arrived = new AtomicInteger();
        AtomicInteger pending = new AtomicInteger(count);
        AtomicReference<Exception> failure = new AtomicReference<>();
        Runnable countDown = () -> {
            if (pending.decrementAndGet() != 0) return;
            Exception e = failure.get();
            if (e != null) {
                listener.onFailure(e);
                return;
            }
            List<ShardAnswer> all = new ArrayList<>(count);
            for (int i = 0; i < arrived.get(); i++)
                all.add(answers.get(i));
            listener.onResponse(Collections.unmodifiableList(all));
        };
        Listener<ShardAnswer> each = new Listener<>() {
            @Override
            public void onResponse(ShardAnswer answer) {
                try {
                    reservation.reserve(answer.ramBytes(), what);
                } catch (Exception e) {
                    onFailure(e);
                    return;
                }
                answers.set(arrived.getAndIncrement(), answer);
                countDown.run();
            }

            @Override
            public void onFailure(Exception e) {
                if (failure.compareAndSet(null, e) == false) {
                    failure.accumulateAndGet(e, (previous, current) -> {
                        if (previous != current) previous.addSuppressed(current);
                        return previous;
                    });
                }
                countDown.run();
            }
        };
        for (int s = 0; s < count; s++) {
            read.accept(s, each);
        }
    }
}
