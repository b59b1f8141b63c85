/**
 * Hostile inputs for the route fuzz test (http/route-fuzz.test.ts). Each list is one class of
 * input an attacker controls; the test samples them per route deterministically, so a failure
 * reproduces.
 */

/** FNV-1a: a stable seed from a route's name. */
export function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** `count` items of `items`, the same ones for the same seed (mulberry32 shuffle). */
export function sample<T>(items: readonly T[], count: number, seed: number): T[] {
  if (count >= items.length) return [...items];
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, count);
}

const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const tinyPng =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Path parameter values, already as they appear in a URL (some deliberately mis-encoded). */
export const hostileParamValues: readonly string[] = [
  '%00',
  'a%00b',
  '%E0%A4%A',
  '%ff',
  '%ED%A0%80', // a lone surrogate, UTF-8 encoded
  '%',
  '%zz',
  '..',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  'x'.repeat(3000),
  '__proto__',
  'constructor',
  '-1',
  '1e309',
  'NaN',
  '0.5',
  '99999999999999999999',
  '%20',
  '%F0%9F%92%A9',
];

/** Query values, as they appear in a URL. */
export const hostileQueryValues: readonly string[] = [
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%ff',
  '%E0%A4%A',
  '9999999-01-01',
  '2026-13-45T25:61:61+99:99',
  '2026-01-01T00:00:00+24:00',
  '-271821-04-20T00:00:00Z',
  '275760-09-13T00:00:00.001Z',
  '0000-00-00T00:00:00Z',
  '1e309',
  '-1',
  '1.5',
  'NaN',
  'Infinity',
  '99999999999999999999',
  '0x10',
  '',
  'x'.repeat(5000),
  '__proto__',
  'creator%3A%00',
  '%25',
];

/** Credentials that are not ours: garbage, unsigned and oversized tokens, as header or cookie. */
export const hostileCredentials: readonly Record<string, string>[] = [
  { authorization: 'Bearer x' },
  { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzaWQiOiInOyBkcm9wIHRhYmxlIHVzZXJzOy0tIn0.' },
  { authorization: `Bearer ${'a'.repeat(8000)}` },
  { authorization: 'Basic Zm9vOmJhcg==' },
  { authorization: 'Bearer' },
  { cookie: 'access_token=%00%ff; access_token=x', 'x-tandem-csrf': '1' },
  { cookie: `access_token=${'b'.repeat(4000)}`, origin: 'https://evil.example' },
  { cookie: 'access_token', 'x-installation-id': '1e400' },
];

/** Whole query strings. */
export const rawQueries: readonly string[] = [
  '%E0%A4%A',
  '%00=%00',
  '%ff=%ff',
  'trajectory_id=%E0%A4%A',
  'trajectory_id[]=1&trajectory_id[]=2',
  '__proto__[admin]=true&constructor[prototype][admin]=true',
  'before=9999999-01-01',
  'before=2026-13-45T25:61:61+99:99',
  'page=1e309&rows_per_page=-1',
  'page=NaN&rows_per_page=1.5',
  '&&&==&',
  'a'.repeat(20000),
];

/** A valid value for every body field any route reads; routes ignore the fields they do not. */
export const BODY_FIELDS: Record<string, unknown> = {
  title: 'A fine title',
  message: 'Hello there',
  body: 'Do the thing',
  images: [],
  comments: [],
  base_branch: 'main',
  model: 'sonnet-4-5',
  review_model: 'gpt-5-medium',
  is_supervisor: false,
  supervisor_id: null,
  script_path: '.tandem/run/build.sh',
  restart: false,
  source_id: '00000000-0000-4000-8000-000000000000',
  behavior: 'always',
  summarization_limit: 150000,
  email: 'someone@example.com',
  lead_id: 'lead-1',
  lead_data: { utm_source: 'news' },
  events: '[{"type":"page_view","timestamp":1700000000000,"data":{"path":"/"}}]',
  user_id: null,
  key: 'API_KEY',
  value: 'secret-value-123',
  installation_id: 1000,
  repo_name: 'new-repo',
  description: 'A repository',
  private: true,
  template_owner: 'acme',
  template_repo: 'webapp',
  id: 'welcome',
  author: 'Ada',
  content: '# Hello',
  published: true,
  port: 3000,
};

/** JSON values (raw JSON text) put in one field at a time. */
export const hostileJsonValues: readonly { name: string; raw: string; heavy?: boolean }[] = [
  { name: 'nul', raw: '"\\u0000"' },
  { name: 'nul inside', raw: '"ab\\u0000cd"' },
  { name: 'lone high surrogate', raw: '"\\ud800"' },
  { name: 'lone low surrogate', raw: '"x\\udfff"' },
  { name: 'surrogate then nul', raw: '"\\ud800\\u0000"' },
  { name: 'empty string', raw: '""' },
  { name: 'huge string', raw: JSON.stringify('x'.repeat(1_500_000)), heavy: true },
  { name: 'long string', raw: JSON.stringify('y'.repeat(300)) },
  { name: 'huge number', raw: '1e308' },
  { name: 'overflowing number', raw: '1e400' },
  { name: 'negative', raw: '-1' },
  { name: 'fraction', raw: '0.5' },
  { name: 'unsafe integer', raw: '9007199254740993' },
  { name: 'int32 overflow', raw: '2147483648' },
  { name: 'NaN string', raw: '"NaN"' },
  { name: 'number string', raw: '"1e999"' },
  { name: 'date out of range', raw: '"9999999-01-01"' },
  { name: 'bad date', raw: '"2026-13-45T25:61:61+99:99"' },
  { name: 'null', raw: 'null' },
  { name: 'true', raw: 'true' },
  { name: 'array', raw: '["a"]' },
  { name: 'object', raw: '{"a":"b"}' },
  { name: 'array of objects with nul', raw: '[{"a":"\\u0000","body":"\\u0000","path":"\\ud800"}]' },
  { name: 'proto object', raw: '{"__proto__":{"admin":true}}' },
  { name: 'constructor object', raw: '{"constructor":{"prototype":{"admin":true}}}' },
  { name: 'deep array', raw: deepArray(10_000) },
  { name: 'deep object', raw: deepObject(10_000) },
  { name: 'nested deep in a list', raw: `[{"a":${deepArray(5_000)}}]` },
  { name: 'many items', raw: JSON.stringify(Array.from({ length: 50_000 }, () => 1)), heavy: true },
  {
    name: 'image with nul name',
    raw: JSON.stringify([{ data: tinyPng, type: 'image/png', name: 'a\u0000b' }]),
  },
  {
    name: 'image bad base64',
    raw: JSON.stringify([{ data: '!!!!', type: 'image/png', name: 'x.png' }]),
  },
  {
    name: 'svg image',
    raw: JSON.stringify([{ data: tinyPng, type: 'image/svg+xml', name: 'x.svg' }]),
  },
  {
    name: 'too many images',
    raw: JSON.stringify(Array.from({ length: 25 }, () => ({ data: tinyPng, type: 'image/png', name: 'x' }))),
  },
  {
    name: 'comments with nul',
    raw: '[{"body":"a\\u0000","path":"src/\\ud800.ts","line":1e400,"x":{"__proto__":{"y":1}}}]',
  },
  { name: 'path traversal', raw: '"../../etc/passwd"' },
  { name: 'branch-like junk', raw: '"refs/heads/../x@{1}"' },
  { name: 'uuid-looking', raw: '"00000000-0000-0000-0000-000000000000"' },
];

interface RawBody {
  name: string;
  /** Slow to send: once per route, not once per role. */
  heavy?: boolean;
  payload: string | Buffer;
  headers: Record<string, string>;
}

const json = { 'content-type': 'application/json' };

/** Whole bodies: wrong shapes, wrong types, malformed bytes. */
export const hostileBodies: readonly RawBody[] = [
  { name: 'empty json', payload: '', headers: json },
  { name: 'empty untyped', payload: '', headers: {} },
  { name: 'null', payload: 'null', headers: json },
  { name: 'array', payload: '[]', headers: json },
  { name: 'array of bodies', payload: JSON.stringify([BODY_FIELDS]), headers: json },
  { name: 'string', payload: '"hello"', headers: json },
  { name: 'number', payload: '1e400', headers: json },
  { name: 'malformed json', payload: '{"message":', headers: json },
  { name: 'deep array body', payload: deepArray(10_000), headers: json },
  { name: 'a million tiny objects', payload: `[${'{},'.repeat(1_000_000)}{}]`, headers: json, heavy: true },
  { name: 'deep object body', payload: deepObject(10_000), headers: json },
  { name: 'very deep array body', payload: deepArray(200_000), headers: json, heavy: true },
  { name: 'proto body', payload: '{"__proto__":{"admin":true},"message":"x"}', headers: json },
  {
    name: 'constructor body',
    payload: '{"constructor":{"prototype":{"admin":true}},"message":"x"}',
    headers: json,
  },
  {
    name: 'invalid utf-8',
    payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    headers: json,
  },
  {
    name: 'utf-16 json',
    payload: Buffer.from('{"message":"x"}', 'utf16le'),
    headers: { 'content-type': 'application/json; charset=utf-16' },
  },
  { name: 'bom', payload: `\ufeff${JSON.stringify(BODY_FIELDS)}`, headers: json },
  { name: 'text', payload: 'message=hello', headers: { 'content-type': 'text/plain' } },
  {
    name: 'text json with nul',
    payload:
      '{"events":"[{\\"type\\":\\"scroll\\",\\"timestamp\\":1,\\"data\\":{\\"a\\":\\"\\\\u0000\\"}}]"}',
    headers: { 'content-type': 'text/plain' },
  },
  {
    name: 'form',
    payload: 'message=hello',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  },
  { name: 'xml', payload: '<a/>', headers: { 'content-type': 'application/xml' } },
  {
    name: 'gzip garbage',
    payload: 'not gzip',
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
  },
  {
    name: 'content-length lies',
    payload: '{"message":"x"}',
    headers: { 'content-type': 'application/json', 'content-length': '999999999' },
  },
  {
    name: 'multipart without boundary',
    payload: '--x\r\n\r\n',
    headers: { 'content-type': 'multipart/form-data' },
  },
  {
    name: 'multipart bogus',
    payload:
      '--b\r\nContent-Disposition: form-data; name="file"; filename="a\u0000.png"\r\nContent-Type: image/png\r\n\r\nxx\r\n--b--\r\n',
    headers: { 'content-type': 'multipart/form-data; boundary=b' },
  },
  {
    name: 'json with parameters',
    payload: JSON.stringify(BODY_FIELDS),
    headers: { 'content-type': 'application/json; charset=latin1; x=y' },
  },
  {
    name: 'bogus content type',
    payload: JSON.stringify(BODY_FIELDS),
    headers: { 'content-type': '\u00ff/\u00ff' },
  },
  {
    name: 'too large',
    payload: JSON.stringify({ message: 'x'.repeat(3 * 1024 * 1024) }),
    headers: json,
    heavy: true,
  },
  {
    name: 'nul everywhere',
    payload: JSON.stringify(Object.fromEntries(Object.keys(BODY_FIELDS).map((k) => [k, '\u0000']))),
    headers: json,
  },
  {
    name: 'lone surrogates everywhere',
    payload: JSON.stringify(Object.fromEntries(Object.keys(BODY_FIELDS).map((k) => [k, '\ud800']))),
    headers: json,
  },
];

const installation = (extra: string) =>
  `{"action":"created","installation":{"id":${extra}},"repositories":[{"id":1,"full_name":"x/y"}],"sender":{"id":1,"login":"x"}}`;

/** Signed with the test webhook secret, so they get past the signature check. */
export const hostileWebhookPayloads: readonly { event: string; payload: string }[] = [
  { event: 'installation', payload: '{"oops":' },
  { event: 'installation', payload: 'null' },
  { event: 'installation', payload: '[]' },
  { event: 'installation', payload: '"x"' },
  { event: 'installation', payload: '1e400' },
  { event: 'installation', payload: '{}' },
  { event: 'installation', payload: installation('"NaN"') },
  { event: 'installation', payload: installation('1e400') },
  { event: 'installation', payload: installation('-1,"account":null') },
  { event: 'installation', payload: installation('5,"account":{"id":"x","login":null,"type":1}') },
  {
    event: 'installation',
    payload: installation('6,"account":{"id":1e300,"login":"a\\u0000b","type":"User"}'),
  },
  { event: 'installation', payload: installation('7,"account":{"id":1,"login":"\\ud800","type":"User"}') },
  {
    event: 'installation',
    payload:
      '{"action":"created","installation":{"id":8,"account":{"id":1,"login":"a","type":"User"}},"repositories":"nope"}',
  },
  {
    event: 'installation',
    payload:
      '{"action":"created","installation":{"id":9,"account":{"id":1,"login":"a","type":"User"}},"repositories":[null,{"id":"x"},{"id":1,"full_name":{}}]}',
  },
  {
    event: 'installation',
    payload: '{"action":"deleted","installation":{"id":"x","account":{"id":1,"login":"a","type":"User"}}}',
  },
  {
    event: 'installation_repositories',
    payload:
      '{"installation":{"id":10,"account":{"id":1,"login":"a","type":"User"}},"repositories_added":[{"id":2,"full_name":"a/\\u0000"}],"repositories_removed":[{"id":"x"}]}',
  },
  {
    event: 'installation_repositories',
    payload:
      '{"installation":{"id":10,"account":{"id":1,"login":"a","type":"User"}},"repositories_removed":"x"}',
  },
  {
    event: 'pull_request',
    payload: '{"action":"closed","repository":{"id":"x"},"pull_request":{"number":1}}',
  },
  { event: 'pull_request', payload: '{"action":"closed","repository":{"id":1e400},"pull_request":null}' },
  { event: 'issues', payload: '{"action":"opened","repository":{"id":1},"issue":{"number":"x","state":{}}}' },
  { event: 'issues', payload: '{"action":{},"repository":[],"issue":[]}' },
  { event: 'issue_comment', payload: `{"comment":{"body":"\\u0000\\ud800"},"x":${deepArray(10_000)}}` },
  { event: 'ping', payload: deepObject(10_000) },
  { event: '\u00ff', payload: '{}' },
  { event: 'x'.repeat(5000), payload: '{"action":"x\\u0000"}' },
];
