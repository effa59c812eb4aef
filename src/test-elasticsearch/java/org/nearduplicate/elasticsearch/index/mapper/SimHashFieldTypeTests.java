package org.nearduplicate.elasticsearch.index.mapper;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.elasticsearch.index.fielddata.FieldDataContext;
import org.elasticsearch.index.mapper.MappedFieldType;
import org.elasticsearch.index.mapper.MapperService;
import org.elasticsearch.index.mapper.ValueFetcher;
import org.elasticsearch.index.query.SearchExecutionContext;
import org.elasticsearch.search.lookup.Source;
import org.elasticsearch.xcontent.XContentType;
import org.nearduplicate.PlatformMapperTestCase;

/** The simhash field type on Elasticsearch: fetching its values and the queries it builds. */
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
        System.out.println("TERM " + ft.termQuery("00000000000000ff", ctx));
        System.out.println("EXISTS " + ft.existsQuery(ctx));
        System.out.println("FD " + ft.fielddataBuilder(FieldDataContext.noRuntimeFields("test")));
        System.out.println("AGG " + ft.isAggregatable() + " searchable " + ft.isSearchable());
        Exception e = expectThrows(Exception.class, () -> ft.termQuery("zz", ctx));
        System.out.println("BADTERM " + e.getClass().getName() + ": " + e.getMessage());

        MapperService m2 = createMapperService(fieldMapping(b -> b.field("type", "minhash")));
        MappedFieldType mft = m2.fieldType("field");
        System.out.println("MAGG " + mft.isAggregatable());
        e = expectThrows(Exception.class, () -> mft.fielddataBuilder(FieldDataContext.noRuntimeFields("test")));
        System.out.println("MFD " + e.getClass().getName() + ": " + e.getMessage());
        e = expectThrows(Exception.class, () -> createMapperService(fieldMapping(b -> b.field("type", "simhash").field("boost", 2))));
        System.out.println("BOOST " + e.getClass().getName() + ": " + e.getMessage());
        System.out.println("MAPPING " + service.documentMapper().mappingSource());
    }
}
