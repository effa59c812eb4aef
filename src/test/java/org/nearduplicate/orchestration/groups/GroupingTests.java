package org.nearduplicate.orchestration.groups;

import java.util.List;
import java.util.concurrent.CancellationException;

import org.nearduplicate.PlatformTestCase;
import org.nearduplicate.core.groups.GroupMembers;

/** The groups run over shards in memory: the groups, the phases, the breaker given back, failures and cancellation. */
public class GroupingTests extends PlatformTestCase {

    static FakeShards twoShards() {
        FakeShards shards = new FakeShards(2);
        shards.shards.get(0).add(FakeShards.Doc.of("a", 0b1111L));
        shards.shards.get(0).add(FakeShards.Doc.of("b", 0b0111L)); // 1 bit from a
        shards.shards.get(1).add(FakeShards.Doc.of("c", 0b1111L)); // a's copy on the other shard
        shards.shards.get(1).add(FakeShards.Doc.of("d", -1L)); // far from all
        shards.shards.get(0).add(FakeShards.Doc.of("e", 0L)); // 4 bits from a: alone at k=2
        return shards;
    }

    static Grouping.Result run(FakeShards shards, FakeShards.Task task, FakeShards.CountingBreaker breaker) throws Exception {
        FakeShards.Answered<Grouping.Result> answered = new FakeShards.Answered<>();
        new Grouping(() -> breaker, Runnable::run, () -> 1).run(task, shards, "fp", 2, null, GroupMembers.Mode.COMPONENTS, answered);
        assertEquals(1, answered.calls);
        if (answered.failure != null) throw answered.failure;
        return answered.value;
    }

    public void testGroupsAcrossShardsAndGivesTheBreakerBack() throws Exception {
        FakeShards.CountingBreaker breaker = new FakeShards.CountingBreaker(Long.MAX_VALUE);
        FakeShards.Task task = new FakeShards.Task();
        try (Grouping.Result result = run(twoShards(), task, breaker)) {
            assertEquals(2, result.maxDistance());
            assertTrue(Double.isNaN(result.minSimilarity()));
            assertEquals(FakeShards.ALGORITHM, result.algorithm());
            assertEquals(5, result.docs());
            assertEquals(1, result.groups().size());
            GroupMembers.Group group = result.groups().get(0);
            assertEquals("a", group.representative());
            assertEquals(List.of("a", "c", "b"), group.members().stream().map(GroupMembers.Member::id).toList());
            assertEquals(3, result.docsInGroups());
            assertTrue("the groups stay reserved", breaker.used.get() > 0);
            assertEquals(List.of("reading fingerprints", "grouping", "reading group members"), task.phases);
        }
        assertEquals(0, breaker.used.get());
    }

    public void testNoGroupsReadsNoMembers() throws Exception {
        FakeShards shards = new FakeShards(1);
        shards.shards.get(0).add(FakeShards.Doc.of("a", 0L));
        shards.shards.get(0).add(FakeShards.Doc.of("b", -1L));
        FakeShards.CountingBreaker breaker = new FakeShards.CountingBreaker(Long.MAX_VALUE);
        try (Grouping.Result result = run(shards, new FakeShards.Task(), breaker)) {
            assertEquals(List.of(), result.groups());
            assertEquals(2, result.docs());
        }
        assertEquals(1, shards.reads);
        assertEquals(0, breaker.used.get());
    }

    public void testAFailedShardFailsTheRunOnceAllAnswered() {
        FakeShards shards = twoShards();
        shards.failing = 0;
        FakeShards.CountingBreaker breaker = new FakeShards.CountingBreaker(Long.MAX_VALUE);
        Exception e = expectThrows(IllegalStateException.class, () -> run(shards, new FakeShards.Task(), breaker));
        assertEquals("shard [0] failed", e.getMessage());
        assertEquals(2, shards.reads);
        assertEquals(0, breaker.used.get());
    }

    public void testTheBreakerFailsTheRunAndKeepsNothing() {
        FakeShards.CountingBreaker breaker = new FakeShards.CountingBreaker(100);
        Exception e = expectThrows(IllegalStateException.class, () -> run(twoShards(), new FakeShards.Task(), breaker));
        assertTrue(e.getMessage(), e.getMessage().startsWith("breaker tripped: near_duplicate groups: "));
        assertEquals(0, breaker.used.get());
    }

    public void testACancelledTaskFailsTheRun() {
        FakeShards.Task task = new FakeShards.Task();
        task.cancel();
        FakeShards.CountingBreaker breaker = new FakeShards.CountingBreaker(Long.MAX_VALUE);
        Exception e = expectThrows(CancellationException.class, () -> run(twoShards(), task, breaker));
        assertEquals("near_duplicate groups task cancelled: test", e.getMessage());
        assertEquals(0, breaker.used.get());
    }

    public void testMinSimilarityForAFieldWithoutSignaturesIsRefused() {
        FakeShards.Answered<Grouping.Result> answered = new FakeShards.Answered<>();
        FakeShards.CountingBreaker breaker = new FakeShards.CountingBreaker(Long.MAX_VALUE);
        new Grouping(() -> breaker, Runnable::run, () -> 1).run(
            new FakeShards.Task(),
            twoShards(),
            "fp",
            2,
            0.5,
            GroupMembers.Mode.COMPONENTS,
            answered
        );
        assertTrue(answered.failure instanceof IllegalArgumentException);
        assertTrue(answered.failure.getMessage(), answered.failure.getMessage().startsWith("[min_similarity] is given, but field [fp]"));
        assertEquals(0, breaker.used.get());
    }
}
