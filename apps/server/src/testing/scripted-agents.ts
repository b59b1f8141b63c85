import type { TestDatabaseKind } from '@tandem/db/testing';
import { createAgentResponseSchema } from '@tandem/shared';
import { beforeAll } from 'vitest';
import { useTestApp, type TestApp, type TestUser } from './test-app.js';

/** What an agent-run test works with: the app, ada (admin of acme, with acme/webapp) and helpers. */
export interface ScriptedAgents {
  app: TestApp;
  ada: TestUser;
  /** A user's bearer header. */
  as(user: TestUser): { authorization: string };
  /** Creates an agent on acme/webapp with the scripted model; returns its id. */
  create(body: string, user?: TestUser): Promise<string>;
}

/** Signs in ada, admin of the installation acme (1000) with the repository acme/webapp. */
export function signInAda(app: TestApp): Promise<TestUser> {
  return app.signIn({
    username: 'ada',
    installations: [{ id: 1000, name: 'acme', role: 'admin', repos: ['acme/webapp'] }],
  });
}

/** Creates an agent on acme/webapp as `user` with the scripted model; its id. */
export async function createScriptedAgent(app: TestApp, user: TestUser, body: string): Promise<string> {
  const res = await app.server.inject({
    method: 'POST',
    url: '/api/agents/create-agent/acme/webapp',
    headers: { authorization: `Bearer ${user.token}` },
    payload: { body, model: 'scripted' },
  });
  if (res.statusCode !== 200) throw new Error(`create-agent answered ${res.statusCode}: ${res.body}`);
  return createAgentResponseSchema.parse(res.json()).agent_id;
}

/**
 * The usual set-up of a test of agent runs: a test app with the local code host and the scripted
 * model playing `scriptFile`, and ada signed in. Call inside a describe; the returned function
 * gives the set-up once its beforeAll ran.
 */
export function useScriptedAgents(kind: TestDatabaseKind, scriptFile: string): () => ScriptedAgents {
  const testApp = useTestApp(kind, { codeHost: true, agents: { models: { scriptedModelFile: scriptFile } } });
  let ready: ScriptedAgents | undefined;
  const as = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });
  beforeAll(async () => {
    const app = testApp();
    const ada = await signInAda(app);
    const create = (body: string, user: TestUser = ada) => createScriptedAgent(app, user, body);
    ready = { app, ada, as, create };
  });
  return () => {
    if (!ready) throw new Error('the scripted agents are not ready yet');
    return ready;
  };
}
