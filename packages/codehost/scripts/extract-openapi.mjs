// Extracts the response schemas of the REST operations the product calls from GitHub's OpenAPI
// description (@octokit/openapi, generated/api.github.com.json) into a small pinned fixture the
// code host's contract test validates against. The full description is 13 MB (the package 29 MB
// packed), too much to install for one test; re-run this when the product calls a new operation
// or to move to a newer description:
//   npm pack @octokit/openapi@23.0.2 && tar xzf octokit-openapi-23.0.2.tgz
//   node packages/codehost/scripts/extract-openapi.mjs package/generated/api.github.com.json 23.0.2
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** "METHOD /path" of every REST operation the product (server, agent runtime, github client) calls. */
export const PRODUCT_OPERATIONS = [
  'GET /repos/{owner}/{repo}',
  'GET /repos/{owner}/{repo}/issues/{issue_number}',
  'PATCH /repos/{owner}/{repo}/issues/{issue_number}',
  'POST /repos/{owner}/{repo}/issues',
  'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
  'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
  'GET /user',
  'GET /users/{username}',
  'GET /repos/{owner}/{repo}/commits/{ref}',
  'GET /repos/{owner}/{repo}/collaborators/{username}/permission',
  'GET /repos/{owner}/{repo}/compare/{basehead}',
  'GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls',
  'GET /repos/{owner}/{repo}/contents/{path}',
  'POST /repos/{template_owner}/{template_repo}/generate',
  'POST /repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions',
  'POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions',
  'POST /repos/{owner}/{repo}/issues/{issue_number}/reactions',
  'GET /repos/{owner}/{repo}/pulls/{pull_number}',
  'PATCH /repos/{owner}/{repo}/pulls/{pull_number}',
  'GET /repos/{owner}/{repo}/pulls/{pull_number}/commits',
  'GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}/comments',
  'GET /repos/{owner}/{repo}/pulls',
  'POST /repos/{owner}/{repo}/pulls',
  'GET /user/memberships/orgs/{org}',
  'GET /user/installations',
  'GET /app/installations',
  'GET /user/installations/{installation_id}/repositories',
  'GET /app/installations/{installation_id}',
  'POST /app/installations/{installation_id}/access_tokens',
  // The local CI (packages/github/src/reads/workflow-runs.ts). The job log download answers 302
  // with no JSON body, so it has nothing to validate here; its client test covers it.
  'GET /repos/{owner}/{repo}/actions/runs',
  'GET /repos/{owner}/{repo}/actions/runs/{run_id}',
  'GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs',
  'GET /repos/{owner}/{repo}/commits/{ref}/check-runs',
];

/**
 * OpenAPI 3.0's `nullable: true` as JSON Schema: `type: [t, 'null']`, or `anyOf` with null where
 * the schema has no type of its own (a $ref, allOf, …), which a validator cannot read otherwise.
 */
function jsonSchema(node) {
  if (Array.isArray(node)) return node.map(jsonSchema);
  if (!node || typeof node !== 'object') return node;
  // Erratum: GET /app/installations inlines an installation's account as allOf [Simple User,
  // Enterprise], which no account satisfies (a user has no slug); components/schemas/installation
  // says anyOf, as github.com answers.
  if (Array.isArray(node.allOf) && node.allOf.map((s) => s.title).join() === 'Simple User,Enterprise')
    return jsonSchema({ ...node, allOf: undefined, anyOf: node.allOf });
  const out = {};
  for (const [key, value] of Object.entries(node))
    if (key !== 'nullable' && value !== undefined) out[key] = jsonSchema(value);
  if (node.nullable !== true) return out;
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  return { anyOf: [out, { type: 'null' }] };
}

function main() {
  const [source, version] = process.argv.slice(2);
  if (!source || !version) throw new Error('usage: extract-openapi.mjs <api.github.com.json> <version>');
  const spec = JSON.parse(readFileSync(source, 'utf8'));
  const operations = {};
  const needed = new Set();
  const collect = (node) => {
    if (!node || typeof node !== 'object') return;
    if (typeof node.$ref === 'string') {
      const name = node.$ref.replace('#/components/schemas/', '');
      if (!needed.has(name)) {
        needed.add(name);
        collect(spec.components.schemas[name]);
      }
      return;
    }
    for (const value of Object.values(node)) collect(value);
  };
  for (const key of PRODUCT_OPERATIONS) {
    const [method, path] = key.split(' ');
    const op = spec.paths[path]?.[method.toLowerCase()];
    if (!op) throw new Error(`${key} is not in the description`);
    const responses = {};
    for (const [status, response] of Object.entries(op.responses)) {
      const schema = response.content?.['application/json']?.schema;
      if (!status.startsWith('2') || !schema) continue;
      responses[status] = schema;
      collect(schema);
    }
    operations[key] = { operationId: op.operationId, responses };
  }
  const schemas = Object.fromEntries(
    [...needed].sort().map((name) => [name, jsonSchema(spec.components.schemas[name])]),
  );
  for (const op of Object.values(operations))
    for (const status of Object.keys(op.responses)) op.responses[status] = jsonSchema(op.responses[status]);
  const out = fileURLToPath(new URL('../src/contract/github-rest-openapi.json', import.meta.url));
  writeFileSync(
    out,
    `${JSON.stringify({ source: `@octokit/openapi@${version} generated/api.github.com.json`, operations, components: { schemas } })}\n`,
  );
  console.log(`${Object.keys(operations).length} operations, ${needed.size} schemas → ${out}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
