'use strict'
// The README's flows through the official Elasticsearch JavaScript client against a real Elasticsearch node with the
// plugin: pipeline and index, bulk indexing of the demo pages through the pipeline, near_duplicate by fingerprint,
// text and like, inside a bool filter with a date histogram (what Kibana Discover sends), the rescorer, _simhash and
// _near_duplicates. Every answer is checked against Hamming distances computed here from the stored fingerprints; the
// expectations are clients/js's (the same suite against OpenSearch): the plugin answers the same on both platforms.
// NODE_URL: the node (default http://127.0.0.1:9200); NODE_USERNAME and NODE_PASSWORD (optional): a user of a node
// with security on.

const { before, after, test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { Client } = require('@elastic/elasticsearch')

const client = new Client({
  node: process.env.NODE_URL || 'http://127.0.0.1:9200',
  ...(process.env.NODE_USERNAME ? { auth: { username: process.env.NODE_USERNAME, password: process.env.NODE_PASSWORD || '' } } : {})
})
const INDEX = 'clients-js-pages'
const PIPELINE = 'clients-js-fingerprint'
const K = 8
const DAY_MS = 24 * 3600 * 1000
const FIRST_DAY = Date.parse('2026-11-01T00:00:00Z')
const DEMO = path.join(__dirname, '..', '..', '..', 'demo')

const articleOf = new Map() // page id -> its article (pages.json "group")
const timestampOf = new Map() // page id -> epoch millis
const fingerprintOf = new Map() // page id -> BigInt, as the simhash processor stored it
let storedAlgorithm

function readPage (file) {
  return fs.readFileSync(path.join(DEMO, 'pages', file), 'utf8')
}

function hamming (a, b) {
  let x = a ^ b
  let bits = 0
  while (x !== 0n) {
    bits += Number(x & 1n)
    x >>= 1n
  }
  return bits
}

function fingerprint (hex) {
  return BigInt('0x' + hex)
}

/** Every indexed page within k of a fingerprint, with its distance, by id. */
function within (probe, k) {
  const result = {}
  for (const [id, fp] of [...fingerprintOf].sort()) {
    const distance = hamming(fp, probe)
    if (distance <= k) result[id] = distance
  }
  return result
}

function articlesOf (ids) {
  return [...new Set(ids.map((id) => articleOf.get(id)))].sort()
}

function distancesOf (hits) {
  const result = {}
  for (const hit of [...hits].sort((a, b) => a._id.localeCompare(b._id))) {
    assert.ok(hit.fields && hit.fields._near_duplicate_distance, `${hit._id} carries its distance`)
    result[hit._id] = hit.fields._near_duplicate_distance[0]
  }
  return result
}

function assertClosestFirst (hits) {
  let previous = -1
  for (const hit of hits) {
    const distance = hit.fields._near_duplicate_distance[0]
    assert.ok(distance >= previous, `hits come closest first: ${JSON.stringify(distancesOf(hits))}`)
    assert.ok(Math.abs(hit._score - 1 / (1 + distance)) < 1e-6, `score of ${hit._id}: ${hit._score}`)
    previous = distance
  }
}

async function search (body) {
  // meta: the status beside the body (elasticsearch-js 8 returns the body alone by default)
  const response = await client.search({ index: INDEX, ...body }, { meta: true })
  assert.equal(response.statusCode, 200)
  return response.body
}

/** A plugin endpoint through the client's transport (the client has no method for it). */
async function call (method, path, body) {
  const response = await client.transport.request({ method, path, body }, { meta: true })
  assert.equal(response.statusCode, 200)
  return response.body
}

before(async () => {
  await client.indices.delete({ index: INDEX, ignore_unavailable: true })
  await client.ingest.putPipeline({
    id: PIPELINE,
    processors: [{ simhash: { field: 'content', target_field: 'simhash' } }]
  })
  await client.indices.create({
    index: INDEX,
    settings: { number_of_shards: 1, number_of_replicas: 0, default_pipeline: PIPELINE },
    mappings: {
      properties: {
        content: { type: 'text' },
        simhash: { type: 'simhash' },
        group: { type: 'keyword' },
        variant: { type: 'keyword' },
        ts: { type: 'date' }
      }
    }
  })

  const pages = JSON.parse(fs.readFileSync(path.join(DEMO, 'pages.json'), 'utf8'))
  const operations = []
  pages.forEach((page, i) => {
    articleOf.set(page.id, page.group)
    // three days of pages, so the date histogram has buckets to check
    timestampOf.set(page.id, FIRST_DAY + (i % 3) * DAY_MS)
    operations.push({ index: { _index: INDEX, _id: page.id } })
    operations.push({
      content: readPage(page.file),
      group: page.group,
      variant: page.variant,
      ts: new Date(timestampOf.get(page.id)).toISOString()
    })
  })
  const bulk = await client.bulk({ operations, refresh: true })
  const failed = bulk.items.filter((item) => item.index.error)
  assert.deepEqual(failed, [], 'bulk errors')

  const stored = await search({ size: 1000, _source: ['simhash'] })
  for (const hit of stored.hits.hits) {
    fingerprintOf.set(hit._id, fingerprint(hit._source.simhash.fingerprint))
    storedAlgorithm = hit._source.simhash.algorithm
  }
  assert.deepEqual([...fingerprintOf.keys()].sort(), [...articleOf.keys()].sort(), 'every demo page has a stored fingerprint')
})

after(async () => {
  await client.indices.delete({ index: INDEX, ignore_unavailable: true })
  await client.ingest.deletePipeline({ id: PIPELINE })
  await client.close()
})

test('near_duplicate by fingerprint', async () => {
  const probe = fingerprintOf.get('harbor-bridge-original')
  const answer = await search({
    size: 100,
    query: { near_duplicate: { field: 'simhash', fingerprint: probe.toString(16).padStart(16, '0'), max_distance: K } }
  })
  const expected = within(probe, K)
  assert.deepEqual(distancesOf(answer.hits.hits), expected)
  assert.equal(answer.hits.total.value, Object.keys(expected).length)
  assertClosestFirst(answer.hits.hits)
  // the real answer: the four versions of the harbor-bridge article, and nothing else
  assert.deepEqual(Object.keys(expected),
    ['harbor-bridge-edited', 'harbor-bridge-original', 'harbor-bridge-repost', 'harbor-bridge-text'])
  assert.equal(expected['harbor-bridge-original'], 0)
})

test('near_duplicate by text', async () => {
  const answer = await search({
    size: 100,
    query: { near_duplicate: { field: 'simhash', text: readPage('harbor-bridge-text.txt'), max_distance: K } }
  })
  // the node fingerprints the probe text with the field's algorithm: the indexed copy of that text is at 0
  const expected = within(fingerprintOf.get('harbor-bridge-text'), K)
  const distances = distancesOf(answer.hits.hits)
  assert.deepEqual(distances, expected)
  assert.equal(distances['harbor-bridge-text'], 0)
  assert.deepEqual(articlesOf(Object.keys(expected)), ['harbor-bridge'])
  assertClosestFirst(answer.hits.hits)
})

test('near_duplicate like an indexed page, and through _count', async () => {
  const query = { near_duplicate: { field: 'simhash', like: { _index: INDEX, _id: 'sourdough-edited' }, max_distance: K } }
  const answer = await search({ size: 100, query })
  const expected = within(fingerprintOf.get('sourdough-edited'), K)
  assert.deepEqual(distancesOf(answer.hits.hits), expected)
  assert.deepEqual(articlesOf(Object.keys(expected)), ['sourdough'])
  assert.ok(Object.keys(expected).length > 1, `the edited page has near-duplicates: ${JSON.stringify(expected)}`)
  assertClosestFirst(answer.hits.hits)
  const count = await client.count({ index: INDEX, query })
  assert.equal(count.count, Object.keys(expected).length)
})

test('inside a bool filter with a date histogram, as Kibana Discover sends it', async () => {
  const probe = fingerprintOf.get('library-hours-edited')
  const from = FIRST_DAY + DAY_MS
  const to = FIRST_DAY + 3 * DAY_MS
  const answer = await search({
    size: 500,
    track_total_hits: true,
    sort: [{ ts: { order: 'desc', unmapped_type: 'boolean' } }],
    query: {
      bool: {
        must: [{ match_all: {} }],
        filter: [
          { near_duplicate: { field: 'simhash', fingerprint: probe.toString(16).padStart(16, '0'), max_distance: K, _name: 'dup' } },
          { range: { ts: { gte: new Date(from).toISOString(), lte: new Date(to).toISOString(), format: 'strict_date_optional_time' } } }
        ]
      }
    },
    aggs: { 2: { date_histogram: { field: 'ts', fixed_interval: '1d', time_zone: 'UTC', min_doc_count: 1 } } }
  })

  const expected = Object.keys(within(probe, K)).filter((id) => timestampOf.get(id) >= from && timestampOf.get(id) <= to).sort()
  const expectedPerDay = {}
  for (const id of expected) expectedPerDay[timestampOf.get(id)] = (expectedPerDay[timestampOf.get(id)] || 0) + 1
  assert.ok(expected.length > 0, 'the probe has near-duplicates in the time range')
  assert.deepEqual(answer.hits.hits.map((hit) => hit._id).sort(), expected)
  assert.equal(answer.hits.total.value, expected.length)
  for (const hit of answer.hits.hits) assert.ok(hit.matched_queries.includes('dup'), `${hit._id} matched ${hit.matched_queries}`)
  const perDay = {}
  for (const bucket of answer.aggregations['2'].buckets) perDay[bucket.key] = bucket.doc_count
  assert.deepEqual(perDay, expectedPerDay)
})

test('the rescorer keeps only the near-duplicates of the window', async () => {
  const probe = fingerprintOf.get('harbor-bridge-original')
  const match = { match: { content: 'the harbor bridge' } }
  const matched = (await search({ size: 100, query: match })).hits.hits.map((hit) => hit._id)
  const rescored = await search({
    size: 100,
    query: match,
    rescore: {
      window_size: 100,
      near_duplicate: { field: 'simhash', fingerprint: probe.toString(16).padStart(16, '0'), max_distance: K, score_mode: 'filter' }
    }
  })
  const expected = Object.fromEntries(Object.entries(within(probe, K)).filter(([id]) => matched.includes(id)))
  assert.deepEqual(articlesOf(Object.keys(expected)), ['harbor-bridge'])
  assert.ok(matched.length > Object.keys(expected).length, `the match query alone finds other pages too: ${matched}`)
  assert.deepEqual(distancesOf(rescored.hits.hits), expected)
})

test('_simhash explains two versions of a page', async () => {
  const answer = await call('POST', `/${INDEX}/_simhash`, {
    field: 'simhash',
    html: readPage('harbor-bridge-original.html'),
    compare: { text: readPage('harbor-bridge-text.txt') },
    top_features: 5
  })
  assert.equal(answer.algorithm, storedAlgorithm)
  const first = fingerprint(answer.first.fingerprint)
  const second = fingerprint(answer.second.fingerprint)
  assert.equal(first, fingerprintOf.get('harbor-bridge-original'), 'same fingerprint as the pipeline\'s')
  assert.equal(second, fingerprintOf.get('harbor-bridge-text'))
  assert.equal(answer.distance, hamming(first, second))
  assert.equal(answer.first.content_type, 'html')
  assert.equal(answer.first.features.length, 5)
})

test('_near_duplicates groups are the connected components', async () => {
  const k = 3 // the largest k _near_duplicates serves on the default layout (pairs must share a whole block)
  const answer = await call('POST', `/${INDEX}/_near_duplicates`, { field: 'simhash', max_distance: k, size: 100 })

  const groups = answer.groups.map((group) => {
    const representative = fingerprintOf.get(group.representative)
    for (const member of group.members) {
      assert.equal(member.distance, hamming(fingerprintOf.get(member._id), representative), `distance of ${member._id}`)
    }
    assert.equal(group.members[0]._id, group.representative)
    assert.equal(group.size, group.members.length)
    return group.members.map((member) => member._id)
  })
  const expected = connectedComponents(k)
  assert.deepEqual(groups, expected)
  for (const group of groups) assert.equal(articlesOf(group).length, 1, `one article per group: ${group}`)
  assert.equal(answer.counts.docs_scanned, fingerprintOf.size)
  assert.equal(answer.counts.groups, expected.length)
  assert.equal(answer.counts.docs_in_groups, expected.flat().length)
})

/** Groups of two or more pages linked by distances within k, ordered as the API orders them. */
function connectedComponents (k) {
  const ids = [...fingerprintOf.keys()].sort()
  const parent = new Map(ids.map((id) => [id, id]))
  const root = (id) => (parent.get(id) === id ? id : root(parent.get(id)))
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      if (hamming(fingerprintOf.get(ids[i]), fingerprintOf.get(ids[j])) <= k) parent.set(root(ids[i]), root(ids[j]))
    }
  }
  const byRoot = new Map()
  for (const id of ids) byRoot.set(root(id), [...(byRoot.get(root(id)) || []), id])
  const compare = (a, b) => (a < b ? -1 : a > b ? 1 : 0)
  return [...byRoot.values()]
    .filter((members) => members.length > 1)
    .map((members) => {
      const representative = fingerprintOf.get(members[0]) // ids are sorted: the first is the smallest
      return members.sort((a, b) =>
        hamming(fingerprintOf.get(a), representative) - hamming(fingerprintOf.get(b), representative) || compare(a, b))
    })
    .sort((a, b) => compare(a[0], b[0]))
}
