import { describe, expect, it } from 'vitest';
import { isBotAccount, mentionsBot } from './mentions.js';

describe('mentionsBot', () => {
  it('finds a whole, case-insensitive mention', () => {
    expect(mentionsBot('@tandem please fix this', 'tandem')).toBe(true);
    expect(mentionsBot('Hey @Tandem, fix it.', 'tandem')).toBe(true);
    expect(mentionsBot('cc @tandem', 'tandem')).toBe(true);
    expect(mentionsBot('(@tandem)', 'tandem')).toBe(true);
  });

  it('ignores longer names, e-mail addresses, paths and other bots', () => {
    expect(mentionsBot('@tandem-dev look', 'tandem')).toBe(false);
    expect(mentionsBot('@tandembot look', 'tandem')).toBe(false);
    expect(mentionsBot('mail me at ops@tandem.example', 'tandem')).toBe(false);
    expect(mentionsBot('see org/@tandem', 'tandem')).toBe(false);
    expect(mentionsBot('@@tandem', 'tandem')).toBe(false);
    expect(mentionsBot('no mention here', 'tandem')).toBe(false);
    expect(mentionsBot(null, 'tandem')).toBe(false);
  });

  it('does not count mentions in code or quoted replies', () => {
    expect(mentionsBot('run `@tandem` like this', 'tandem')).toBe(false);
    expect(mentionsBot('```\n@tandem do it\n```\nthanks', 'tandem')).toBe(false);
    expect(mentionsBot('> @tandem do it\n\nI disagree', 'tandem')).toBe(false);
    expect(mentionsBot('```\ncode\n```\n@tandem now', 'tandem')).toBe(true);
  });

  it('treats the slug as text, not as a pattern', () => {
    expect(mentionsBot('@aXb', 'a.b')).toBe(false);
    expect(mentionsBot('@a.b hi', 'a.b')).toBe(true);
  });
});

describe('isBotAccount', () => {
  it('knows the App bot by type or by login', () => {
    expect(isBotAccount({ login: 'tandem[bot]', type: 'Bot' }, 'tandem')).toBe(true);
    expect(isBotAccount({ login: 'Tandem[bot]', type: 'User' }, 'tandem')).toBe(true);
    expect(isBotAccount({ login: 'dependabot[bot]', type: 'Bot' }, 'tandem')).toBe(true);
    expect(isBotAccount({ login: 'ada', type: 'User' }, 'tandem')).toBe(false);
    expect(isBotAccount(undefined, 'tandem')).toBe(false);
  });
});
