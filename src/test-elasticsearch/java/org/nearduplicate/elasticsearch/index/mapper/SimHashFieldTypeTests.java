package org.nearduplicate.elasticsearch.index.mapper;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.elasticsearch.index.fielddata.FieldDataContext;
import org.elasticsearch.index.mapper.MappedFieldType;
import org.elasticsearch.index.mapper.MapperService;
import org.elasticsearch.index.mapper.ValueFetcher;
import org.elasticsearch.index.query.QueryShardException;
import org.elasticsearch.index.query.SearchExecutionContext;
import org.elasticsearch.search.lookup.Source;
import org.elasticsearch.xcontent.XContentType;
import org.nearduplicate.PlatformMapperTestCase;

import static org.hamcrest.Matchers.containsString;

/** The simhash and minhash field types on Elasticsearch: fetched values, queries, field data and the default mapping. */
public class SimHashFieldTypeTests extends PlatformMapperTestCase {
    public void testFetchAndQueries() throws Exception {
        MapperService service = createMapperService(fieldMapping(b -> b.field("type", "simhash")));
        SearchExecutionContext ctx = createSearchExecutionContext(service);
        MappedFieldType ft = service.fieldType("field");
        ValueFetcher f = ft.valueFetcher(ctx, null);
        List<Object> ignored = new ArrayList<>();
        Source s = Source.fromMap(Map.of("field", Map.of("fingerprint", "255", "algorithm", "x")), XContentType.JSON);
        assertEquals(List.of("00000000000000ff"), f.fetchValues(s, 0, ignored));
        s = Source.fromMap(Map.of("field", 255), XContentType.JSON);
        assertEquals(List.of("00000000000000ff"), f.fetchValues(s, 0, ignored));
        expectThrows(IllegalArgumentException.class, () -> ft.valueFetcher(ctx, "hex"));
        assertEquals(
            "near_duplicate(field:00000000000000ff ~0 keys 64b/4blocks/k16/check28)",
            ft.termQuery("00000000000000ff", ctx).toString()
        );
        assertEquals("FieldExistsQuery [field=field]", ft.existsQuery(ctx).toString());
        assertNotNull(ft.fielddataBuilder(FieldDataContext.noRuntimeFields("test")));
        assertTrue(ft.isAggregatable());
        assertTrue(ft.isSearchable());
        Exception e = expectThrows(QueryShardException.class, () -> ft.termQuery("zz", ctx));
        assertEquals(
            "field [field]: invalid fingerprint [zz]: expected 16 hex digits, 0x-prefixed hex, or a decimal number",
            e.getMessage()
        );

        MapperService m2 = createMapperService(fieldMapping(b -> b.field("type", "minhash")));
        MappedFieldType mft = m2.fieldType("field");
        assertFalse(mft.isAggregatable());
        e = expectThrows(IllegalArgumentException.class, () -> mft.fielddataBuilder(FieldDataContext.noRuntimeFields("test")));
        assertEquals("Fielddata is not supported on field [field] of type [minhash]", e.getMessage());
        e = expectThrows(Exception.class, () -> createMapperService(fieldMapping(b -> b.field("type", "simhash").field("boost", 2))));
        assertThat(e.getMessage(), containsString("Unknown parameter [boost]"));
        assertEquals(
            "{\"_doc\":{\"properties\":{\"field\":{\"type\":\"simhash\",\"blocks\":4,\"max_distance\":16,\"check_bits\":28,"
                + "\"algorithm\":\"simhash-v7:content_type=auto,extract=main,features=words,shingle_size=2,stopwords=true,weighting=tf,"
                + "idf=none,keys=pairs:3x8+2x4:w32\"}}}}",
            service.documentMapper().mappingSource().toString()
        );
    }
}
