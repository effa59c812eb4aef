package org.nearduplicate.bench.groups;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.nearduplicate.bench.harness.*;

/** One run of GroupsBench: its configuration, the node, what it learns (facts) and what went wrong (problems). */
final class GroupsRun {
    final GroupsConfig c;
    final NodeClient node;
    final Map<String, Object> facts = new LinkedHashMap<>();
    /** what the results file lists under problems; one starting with ** fails the run */
    final List<String> problems = new ArrayList<>();

    GroupsRun(GroupsConfig c, NodeClient node) {
        this.c = c;
        this.node = node;
    }

    /** The documents of the index, -1 when there is no such index. */
    long count() {
        try {
            return ((Number) node.getJson("/" + c.index() + "/_count").get("count")).longValue();
        } catch (Exception e) {
            return -1;
        }
    }

    /** The documents of the index that have {@code field}. */
    long existsCount(String field) throws IOException, InterruptedException {
        return ((Number) Json.map(node.post("/" + c.index() + "/_count", "{\"query\":{\"exists\":{\"field\":\"" + field + "\"}}}"))
            .get("count")).longValue();
    }
}
