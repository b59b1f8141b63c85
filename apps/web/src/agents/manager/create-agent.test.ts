import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import {
  agentCreationFailure,
  agentPageUrl,
  installationToCreateIn,
  repoCreationFailure,
} from './create-agent';
import { bob } from './test-support';

const created = { event_uuid: 'ev-1', temp_title: 'Fix it', agent_id: 'agent-1' };

describe('agentPageUrl', () => {
  it('carries the message, event and temporary title, and the image count when there are images', () => {
    const plain = new URL(agentPageUrl('acme/webapp', created, 'Fix it & ship?', 0), 'http://x');
    expect(plain.pathname).toBe('/gh/acme/webapp/agent/agent-1');
    expect(Object.fromEntries(plain.searchParams)).toEqual({
      message: 'Fix it & ship?',
      event_uuid: 'ev-1',
      temp_title: 'Fix it',
    });
    const withImages = new URL(agentPageUrl('acme/webapp', created, '', 2), 'http://x');
    expect(withImages.searchParams.get('image_count')).toBe('2');
  });
});

describe('installationToCreateIn', () => {
  it("is the owner's installation for a repository the user does not have yet", () => {
    expect(installationToCreateIn(bob, 'acme/new-thing')).toBe(1000);
    expect(installationToCreateIn(bob, 'ACME/new-thing')).toBe(1000);
  });

  it('is null for a known repository or an owner without an installation', () => {
    expect(installationToCreateIn(bob, 'acme/webapp')).toBeNull();
    expect(installationToCreateIn(bob, 'Acme/WebApp')).toBeNull();
    expect(installationToCreateIn(bob, 'someone/else')).toBeNull();
  });
});

describe('failures', () => {
  it('maps agent creation failures', () => {
    expect(agentCreationFailure(new ApiError('x', 402))).toEqual({ kind: 'credits' });
    expect(agentCreationFailure(new ApiError('x', 404))).toEqual({
      kind: 'message',
      text: 'There was an error creating the agent. Refresh or try again later.',
    });
  });

  it('maps repository creation failures (workspace §8)', () => {
    expect(repoCreationFailure(new ApiError('x', 401))).toMatchObject({
      text: 'The repository was created, but unable to be automatically installed',
      settingsLink: true,
    });
    expect(repoCreationFailure(new ApiError('x', 409))).toMatchObject({
      text: "This repository isn't installed",
    });
    expect(repoCreationFailure(new ApiError('x', 403))).toMatchObject({
      text: 'Tandem does not have permission to create repositories',
    });
    expect(repoCreationFailure(new Error('offline'))).toMatchObject({
      text: 'There was an error creating the repository. Refresh or try again later.',
    });
  });
});
