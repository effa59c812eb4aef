package org.nearduplicate.opensearch.rest;

import com.carrotsearch.randomizedtesting.annotations.Name;
import com.carrotsearch.randomizedtesting.annotations.ParametersFactory;

import org.opensearch.test.rest.yaml.ClientYamlTestCandidate;
import org.opensearch.test.rest.yaml.OpenSearchClientYamlSuiteTestCase;

/** Runs the YAML REST tests under src/test/resources/rest-api-spec/test against the real node (scripts/node.sh). */
public class NearDuplicateClientYamlTestSuiteIT extends OpenSearchClientYamlSuiteTestCase {

    public NearDuplicateClientYamlTestSuiteIT(@Name("yaml") ClientYamlTestCandidate testCandidate) {
        super(testCandidate);
    }

    @ParametersFactory
    public static Iterable<Object[]> parameters() throws Exception {
        return OpenSearchClientYamlSuiteTestCase.createParameters();
    }
}
