package org.nearduplicate.opensearch;

import org.opensearch.core.common.io.stream.NamedWriteableRegistry;
import org.opensearch.index.mapper.Mapper;
import org.opensearch.plugins.MapperPlugin;
import org.opensearch.plugins.Plugin;
import org.opensearch.plugins.SearchPlugin;
import org.opensearch.search.DocValueFormat;
import org.opensearch.search.fetch.FetchSubPhase;

import java.util.List;
import java.util.Map;

/** Wires the near-duplicate processor, field type, query, rescorer and REST API into OpenSearch. */
public class NearDuplicatePlugin extends Plugin implements MapperPlugin, SearchPlugin {

    @Override
    public Map<String, Mapper.TypeParser> getMappers() {
        return Map.of(SimHashFieldMapper.CONTENT_TYPE, SimHashFieldMapper.PARSER);
    }

    @Override
    public List<QuerySpec<?>> getQueries() {
        return List.of(
            new QuerySpec<>(NearDuplicateQueryBuilder.NAME, NearDuplicateQueryBuilder::new, NearDuplicateQueryBuilder::fromXContent)
        );
    }

    @Override
    public List<RescorerSpec<?>> getRescorers() {
        return List.of(
            new RescorerSpec<>(NearDuplicateRescorerBuilder.NAME, NearDuplicateRescorerBuilder::new, NearDuplicateRescorerBuilder::fromXContent)
        );
    }

    @Override
    public List<FetchSubPhase> getFetchSubPhases(FetchPhaseConstructionContext context) {
        return List.of(new NearDuplicateDistanceFetchSubPhase());
    }

    @Override
    public List<NamedWriteableRegistry.Entry> getNamedWriteables() {
        return List.of(new NamedWriteableRegistry.Entry(DocValueFormat.class, SimHashDocValueFormat.NAME, SimHashDocValueFormat::readFrom));
    }
}
