package org.nearduplicate.opensearch;

import org.opensearch.plugins.ActionPlugin;
import org.opensearch.plugins.CircuitBreakerPlugin;
import org.opensearch.plugins.IngestPlugin;
import org.opensearch.plugins.MapperPlugin;
import org.opensearch.plugins.SearchPlugin;

/**
 * The extension points the plugin implements, the same on both platforms: ingest processors, actions and action
 * filters, field mappers, queries and rescorers, and a circuit breaker. Each platform's {@link PlatformPlugin} adds
 * the ones whose signatures differ.
 */
public interface ExtensionPoints extends IngestPlugin, ActionPlugin, MapperPlugin, SearchPlugin, CircuitBreakerPlugin {}
