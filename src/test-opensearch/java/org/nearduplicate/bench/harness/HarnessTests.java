package org.nearduplicate.bench.harness;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.nearduplicate.PlatformTestCase;

/** The node benchmarks' shared harness, without a node: JSON and the results' formats. */
public class HarnessTests extends PlatformTestCase {

    public void testJsonReadsWhatTheNodeAnswers() {
        Map<?, ?> m = Json.map(
            "{\"a\":1,\"b\":-2.5e3,\"c\":\"x\\\"\\n\\u00e9\",\"d\":[true,false,null],\"e\":{},\"f\":[],\"g\":123456789012345678901234}"
        );
        assertEquals(List.of("a", "b", "c", "d", "e", "f", "g"), new ArrayList<>(m.keySet()));
        assertEquals(1L, m.get("a"));
        assertEquals(-2500.0, m.get("b"));
        assertEquals("x\"\né", m.get("c"));
        assertEquals(java.util.Arrays.asList(true, false, null), m.get("d"));
        assertEquals(Map.of(), m.get("e"));
        assertEquals(List.of(), m.get("f"));
        assertEquals(new BigInteger("123456789012345678901234"), m.get("g"));
        assertEquals(1, Json.num(m, "a"));
        assertEquals(0, Json.num(m, "missing"));
        assertEquals(0, Json.num(null, "a"));
    }

    public void testJsonPathAndRoundTrip() {
        Map<?, ?> m = Json.map("{\"_all\":{\"primaries\":{\"segments\":{\"count\":3}}}}");
        assertEquals(3, Json.num(Json.at(m, "_all", "primaries", "segments"), "count"));
        assertNull(Json.at(m, "_all", "nope", "segments"));
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("s", "q\"\\\t");
        o.put("n", 7L);
        o.put("d", 1.5);
        o.put("l", List.of(1L, "two", Map.of("k", false)));
        o.put("z", null);
        String json = Json.write(o);
        assertEquals("{\"s\":\"q\\\"\\\\\\t\",\"n\":7,\"d\":1.5,\"l\":[1,\"two\",{\"k\":false}],\"z\":null}", json);
        assertEquals(o, Json.parse(json));
    }

    public void testReportFormats() {
        assertEquals("n/a", Report.f(Double.NaN));
        assertEquals("123", Report.f(123.4));
        assertEquals("12.3", Report.f(12.34));
        assertEquals("1.23", Report.f(1.234));
        assertEquals("0.123", Report.f(0.1234));
        assertEquals("2.00 MB", Report.mb(2 * 1048576L));
        assertEquals("n/a", Report.mb(-1));
        assertEquals("150 s", Report.secs(150_000));
        assertEquals("99.0 ms", Report.secs(99));
        long[] sorted = { 1_000_000, 2_000_000, 3_000_000, 4_000_000 };
        assertEquals(2.0, Report.pct(sorted, 50), 0);
        assertEquals(4.0, Report.pct(sorted, 99), 0);
        assertEquals(1.0, Report.pct(sorted, 0), 0);
        assertEquals("000000000000002a", Report.hex(42));
        assertEquals("| a | 3 |  |\n", Report.row("a", 3, ""));
    }
}
