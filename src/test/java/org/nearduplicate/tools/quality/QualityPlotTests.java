package org.nearduplicate.tools.quality;

import javax.xml.parsers.DocumentBuilderFactory;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.nearduplicate.PlatformTestCase;
import org.nearduplicate.core.SimHashSettings;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The SVG plot: well-formed, one point per k for precision, recall and F1, at the right heights. */
public class QualityPlotTests extends PlatformTestCase {

    public void testSvgPlotsPrecisionRecallAndF1PerK() throws Exception {
        int kMax = randomIntBetween(1, 12);
        QualityReport.Counts[] perK = new QualityReport.Counts[kMax + 1];
        for (int k = 0; k <= kMax; k++) {
            perK[k] = new QualityReport.Counts();
            perK[k].tp = 10 * k;
            perK[k].fn = 10 * (kMax - k);
            perK[k].fp = k;
            perK[k].tn = 100 - k;
        }
        QualityReport.Result r = new QualityReport.Result(SimHashSettings.DEFAULT, kMax, Map.of("all", perK), 0, 0.1);
        String svg = QualityPlot.svg(r);
        Document doc = DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        NodeList lines = doc.getElementsByTagName("polyline");
        assertEquals(3, lines.getLength());
        for (int i = 0; i < 3; i++) {
            String[] points = ((Element) lines.item(i)).getAttribute("points").split(" ");
            assertEquals(kMax + 1, points.length);
        }
        // recall at k = kMax is 1: the top of the plot (y = 40); recall at k = 0 is 0: the bottom (y = 350)
        String[] recall = ((Element) lines.item(1)).getAttribute("points").split(" ");
        assertEquals("350.0", recall[0].split(",")[1]);
        assertEquals("40.0", recall[kMax].split(",")[1]);
        assertTrue(svg.contains("best F1 at k = " + r.bestK()));
        assertEquals(3 * (kMax + 1), doc.getElementsByTagName("circle").getLength());
    }
}
