package org.nearduplicate.orchestration.groups;

import org.nearduplicate.PlatformTestCase;

/** What a piece of work holds in the breaker: reserved before use, given back once, transferable to its consumer. */
public class ReservationTests extends PlatformTestCase {

    public void testReserveReleaseAndCloseGiveBackExactly() {
        FakeShards.CountingBreaker breaker = new FakeShards.CountingBreaker(1000);
        Reservation reservation = new Reservation(breaker, "run");
        reservation.reserve(600, "a");
        reservation.release(800); // never more than is held
        assertEquals(0, breaker.used.get());
        reservation.reserve(700, "b");
        IllegalStateException e = expectThrows(IllegalStateException.class, () -> reservation.reserve(400, "c"));
        assertTrue(e.getMessage(), e.getMessage().contains("run: c"));
        assertEquals(700, reservation.held());
        reservation.close();
        reservation.close();
        assertEquals(0, breaker.used.get());
        reservation.reserve(100, "after close"); // a late answer cannot leave bytes behind
        assertEquals(0, breaker.used.get());
    }

    public void testTransferMovesBytesWithoutReleasingThem() {
        FakeShards.CountingBreaker breaker = new FakeShards.CountingBreaker(Long.MAX_VALUE);
        Reservation run = new Reservation(breaker, "run");
        run.reserve(1000, "a");
        Reservation result = run.transfer(600);
        run.close();
        assertEquals(600, breaker.used.get());
        result.close();
        result.close();
        assertEquals(0, breaker.used.get());
    }

    public void testNoneHoldsNothing() {
        Reservation none = Reservation.none();
        none.reserve(100, "x");
        assertEquals(0, none.held());
        none.close();
        assertEquals(0, none.transfer(10).held());
    }
}
