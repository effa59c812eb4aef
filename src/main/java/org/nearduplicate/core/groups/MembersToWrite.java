package org.nearduplicate.core.groups;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * What the write-back writes for the members of its groups: each member's group (the representative's {@code _id})
 * and distance, in group order, skipping members whose group fields already hold both (read with them on their
 * shard, {@link WrittenGroup}). Each member is checked once, however often {@link #hasNext} is asked.
 */
public final class MembersToWrite implements Iterator<MembersToWrite.Update> {
    /** One member's update: {@code group} into the group field, {@code distance} into the distance field. */
    public record Update(String id, String routing, String group, int distance) {
    }

    private final List<GroupMembers.Group> groups;
    private final Runnable unchanged;
    private final WrittenGroup states = new WrittenGroup();
    private int group;
    private int member;
    /** The current member is to be written. */
    private boolean ready;

    /** {@code unchanged} runs once for every member skipped because it is already right. */
    public MembersToWrite(List<GroupMembers.Group> groups, Runnable unchanged) {
        this.groups = groups;
        this.unchanged = unchanged;
    }

    @Override
    public boolean hasNext() {
        while (ready == false && group < groups.size()) {
            GroupMembers.Group g = groups.get(group);
            if (member >= g.members().size()) {
                group++;
                member = 0;
            } else if (states.holds(g.members().get(member), g.representative())) {
                member++;
                unchanged.run();
            } else {
                ready = true;
            }
        }
        return ready;
    }

    @Override
    public Update next() {
        if (hasNext() == false) throw new NoSuchElementException();
        GroupMembers.Group g = groups.get(group);
        GroupMembers.Member m = g.members().get(member++);
        ready = false;
        return new Update(m.id(), m.routing(), g.representative(), m.distance());
    }
}
