package org.nearduplicate.opensearch;

import org.opensearch.test.OpenSearchTestCase;

public class NearDuplicatePluginTests extends OpenSearchTestCase {
    public void testPluginConstructs() {
        assertNotNull(new NearDuplicatePlugin(org.opensearch.common.settings.Settings.EMPTY));
    }
}
