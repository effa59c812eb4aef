package org.nearduplicate.tools.quality;

import org.junit.Test;

import java.io.InputStream;
import java.nio.file.Path;

import org.nearduplicate.core.SimHashSettings;

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

        Corpus corpus = Corpus.loadGzipped(docs, pairs);
        QualityReport.Result r = QualityReport.evaluate(corpus, SimHashSettings.DEFAULT, 16);
        int k = SimHashSettings.DEFAULT.recommendedMaxDistance(); // the query's default k
        double f1 = r.at("all", k).f1();
        assertTrue("F1 at the default k: " + f1, f1 >= 0.93);
        assertTrue("F1 en at the default k: " + r.at("lang:en", k).f1(), r.at("lang:en", k).f1() >= 0.92);
        assertTrue("F1 zh at the default k: " + r.at("lang:zh", k).f1(), r.at("lang:zh", k).f1() >= 0.90);
        assertTrue("precision at the default k: " + r.at("all", k).precision(), r.at("all", k).precision() >= 0.97);
        assertTrue("same_site FP rate", r.at("neg:same_site", k).falsePositiveRate() <= 0.01);
        assertTrue("boilerplate FP rate", r.at("neg:boilerplate", k).falsePositiveRate() <= 0.02);
        assertTrue("documents failed: " + r.failures(), r.failures() == 0);

        // version 1, as existing indices compute it, keeps its own floors at its own default k
        QualityReport.Result v1 = QualityReport.evaluate(corpus, SimHashSettings.DEFAULT_V1, 12);
        int k1 = SimHashSettings.DEFAULT_V1.recommendedMaxDistance();
        assertTrue("v1 F1 at its default k: " + v1.at("all", k1).f1(), v1.at("all", k1).f1() >= 0.90);
        assertTrue("v1 precision at k=8: " + v1.at("all", 8).precision(), v1.at("all", 8).precision() >= 0.98);
    }
}
