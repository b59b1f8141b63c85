import { describe, expect, it } from 'vitest';
import { createScrubber } from '../sandbox/index.js';
import { loggableError } from './loggable-error.js';

describe('loggableError', () => {
  const scrub = createScrubber(['sk-live-7f3a9c2e5b1d']);

  it('scrubs the message and the stack and drops other properties', () => {
    const error = Object.assign(new TypeError('push of sk-live-7f3a9c2e5b1d failed'), {
      request: { body: 'token sk-live-7f3a9c2e5b1d' },
    });
    const logged = loggableError(error, scrub);
    expect(logged.message).toBe('push of [REDACTED] failed');
    expect(logged.name).toBe('TypeError');
    expect(logged.stack).toContain('push of [REDACTED] failed');
    expect(JSON.stringify({ ...logged, stack: logged.stack, message: logged.message })).not.toContain(
      'sk-live',
    );
  });

  it('turns a thrown non-error into a scrubbed error', () => {
    expect(loggableError('https://u:hunter2@host', scrub).message).toBe('https://u:[REDACTED]@host');
  });
});
