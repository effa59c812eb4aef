package org.nearduplicate.tools.quality;

import org.nearduplicate.core.SimHashSettings;
import org.junit.Test;

import java.io.InputStream;
import java.nio.file.Path;

import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

/**
 * Quality floors of the default settings on the small labelled corpus ({@code eval.dir}/mini). Floors sit below the
 * measured values (docs/engine.md) so that only real regressions fail.
 */
public class CorpusQualityTests {

    @Test
    public void testDefaultSettingsOnMiniCorpus() throws Exception {
        Path mini = Path.of(System.getProperty("eval.dir", "../shared/eval"), "mini");
        // the build copies eval.dir/mini to the test class path (pom testResources): once the OpenSearch test
        // framework has installed its security policy, files outside the project cannot be opened directly
        InputStream docs = getClass().getResourceAsStream("/eval-mini/docs.jsonl.gz");
        InputStream pairs = getClass().getResourceAsStream("/eval-mini/pairs.tsv.gz");
        if (docs == null || pairs == null) System.err.println("SKIPPED: no evaluation corpus at " + mini.toAbsolutePath());
        assumeTrue("no evaluation corpus at " + mini.toAbsolutePath(), docs != null && pairs != null);

        QualityReport.Result r = QualityReport.evaluate(Corpus.loadGzipped(docs, pairs), SimHashSettings.DEFAULT, 12);
        int k = 8; // the largest distance the default index layout supports
        double f1 = r.at("all", k).f1();
        assertTrue("F1 at k=8: " + f1, f1 >= 0.80);
        assertTrue("F1 en at k=8: " + r.at("lang:en", k).f1(), r.at("lang:en", k).f1() >= 0.80);
        assertTrue("F1 zh at k=8: " + r.at("lang:zh", k).f1(), r.at("lang:zh", k).f1() >= 0.75);
        assertTrue("precision at k=8: " + r.at("all", k).precision(), r.at("all", k).precision() >= 0.98);
        assertTrue("same_site FP rate", r.at("neg:same_site", k).falsePositiveRate() <= 0.01);
        assertTrue("boilerplate FP rate", r.at("neg:boilerplate", k).falsePositiveRate() <= 0.05);
        assertTrue("best F1 up to k=12: " + r.at("all", r.bestK()).f1(), r.at("all", r.bestK()).f1() >= 0.90);
        assertTrue("documents failed: " + r.failures(), r.failures() == 0);
    }
}
