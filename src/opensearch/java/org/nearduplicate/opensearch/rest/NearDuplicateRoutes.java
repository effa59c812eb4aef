package org.nearduplicate.opensearch.rest;

import org.opensearch.rest.RestHandler.Route;

import java.util.ArrayList;
import java.util.List;

/**
 * The plugin's REST paths: each endpoint answers at its historic path (e.g. {@code /{index}/_near_duplicates}) and at
 * the same path under {@link #PREFIX} ({@code /_plugins/_near_duplicate/{index}/_near_duplicates}), the prefix of
 * plugin endpoints (the same paths on both platforms); the stats exist only under the prefix.
 */
final class NearDuplicateRoutes {
    static final String PREFIX = "/_plugins/_near_duplicate";

    private NearDuplicateRoutes() {}

    /** {@code routes}, each also under {@link #PREFIX}. */
    static List<Route> withPluginAliases(List<Route> routes) {
        List<Route> all = new ArrayList<>(routes);
        for (Route route : routes) {
            all.add(new Route(route.getMethod(), PREFIX + route.getPath()));
        }
        return List.copyOf(all);
    }
}
