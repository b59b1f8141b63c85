import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './schema.js';

describe('party settings', () => {
  it('are off without TANDEM_PARTY_REPO, with defaults otherwise', () => {
    expect(loadConfig({}).party).toBeNull();
    expect(loadConfig({ TANDEM_PARTY_REPO: 'acme/api' }).party).toEqual({
      repo: 'acme/api',
      model: null,
      dailyCredits: 500,
      messagesPerMinute: 6,
      ipMessagesPerMinute: 20,
      maxMessageChars: 4000,
    });
    expect(
      loadConfig({
        TANDEM_PARTY_REPO: 'acme/api',
        TANDEM_PARTY_MODEL: 'scripted',
        TANDEM_PARTY_DAILY_CREDITS: '0',
        TANDEM_PARTY_MESSAGES_PER_MINUTE: '3',
      }).party,
    ).toMatchObject({ model: 'scripted', dailyCredits: 0, messagesPerMinute: 3 });
  });

  it('name the bad variable', () => {
    for (const [variable, value] of [
      ['TANDEM_PARTY_REPO', 'not a repo'],
      ['TANDEM_PARTY_MESSAGES_PER_MINUTE', '0'],
      ['TANDEM_PARTY_MAX_MESSAGE_CHARS', 'lots'],
    ] as const) {
      expect(() => loadConfig({ TANDEM_PARTY_REPO: 'acme/api', [variable]: value })).toThrow(ConfigError);
      expect(() => loadConfig({ TANDEM_PARTY_REPO: 'acme/api', [variable]: value })).toThrow(variable);
    }
  });
});
