import { describe, expect, it } from 'vitest';
import { createScrubber, REDACTED, type Scrubber } from './scrub.js';

const SECRET = 'sk-live-7f3a9c2e5b1d';

/** Feeds `pieces` to one stream scrubber and returns what each write (and the end) showed. */
function streamed(scrub: Scrubber, pieces: string[]): string[] {
  const stream = scrub.stream();
  return [...pieces.map((piece) => stream.write(piece)), stream.end()];
}

/** A deterministic pseudo-random generator, so a failing split can be reproduced. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

describe('createScrubber', () => {
  it('masks every occurrence of each secret', () => {
    const scrub = createScrubber(['s3cr3t-value', 'other-token']);
    expect(scrub('a s3cr3t-value b s3cr3t-value c other-token')).toBe(
      'a [REDACTED] b [REDACTED] c [REDACTED]',
    );
  });

  it('masks longer secrets first so no remainder of them stays visible', () => {
    const scrub = createScrubber(['abcdef', 'abcdefghij']);
    expect(scrub('x abcdefghij y abcdef')).toBe('x [REDACTED] y [REDACTED]');
    // Overlapping values are masked as one.
    expect(createScrubber(['secret-one', 'one-more-secret'])('secret-one-more-secret!')).toBe('[REDACTED]!');
  });

  it('also masks a secret without the whitespace it was stored with', () => {
    expect(createScrubber(['token-123\n'])('value: token-123.')).toBe('value: [REDACTED].');
  });

  it('masks credentials in URLs, known or not', () => {
    const scrub = createScrubber([]);
    expect(scrub('fatal: https://x-access-token:ghs_abc123@github.com/o/r.git not found')).toBe(
      'fatal: https://x-access-token:[REDACTED]@github.com/o/r.git not found',
    );
    expect(scrub("remote 'http://user:p%40ss@localhost:8080/r'")).toBe(
      "remote 'http://user:[REDACTED]@localhost:8080/r'",
    );
    expect(scrub('https://github.com/o/r and git@github.com:o/r.git and a:b@c')).toBe(
      'https://github.com/o/r and git@github.com:o/r.git and a:b@c',
    );
  });

  it('combines both on the same text', () => {
    const scrub = createScrubber(['ghs_abc123']);
    expect(scrub('token ghs_abc123 in https://x-access-token:ghs_abc123@github.com')).toBe(
      'token [REDACTED] in https://x-access-token:[REDACTED]@github.com',
    );
  });

  it('leaves text without secrets as it is', () => {
    const scrub = createScrubber([SECRET, 'abc']);
    const text = 'npm test\n> 12 passing (3 ms)\n✓ émoji 😀 and ünïcode\n';
    expect(scrub(text)).toBe(text);
    expect(streamed(scrub, [text]).join('')).toBe(text);
  });
});

describe('scrubbers for the same secrets (their patterns are built once and shared)', () => {
  it('keeps each stream to itself when two runs scrub the same secrets at once', () => {
    const [first, second] = [
      createScrubber([SECRET, 'other-token']),
      createScrubber([SECRET, 'other-token']),
    ];
    const a = first!.stream();
    const b = second!.stream();
    const shown = [a.write(`x ${SECRET.slice(0, 8)}`), b.write('plain '), a.write(SECRET.slice(8))];
    shown.push(b.write('other-tok'), b.write('en y'), a.end(), b.end());
    expect(shown.join('|')).not.toContain(SECRET);
    expect(shown[0]! + shown[2] + shown[5]).toBe(`x ${REDACTED}`);
    expect(shown[1]! + shown[3] + shown[4] + shown[6]).toBe(`plain ${REDACTED} y`);
  });

  it("never masks one list's secrets with another's, however the values split", () => {
    const joined = createScrubber(['ab12cd34', 'ef56gh78']);
    const split = createScrubber(['ab12cd34ef', '56gh78']);
    expect(joined('ab12cd34ef56gh78')).toBe(`${REDACTED}${REDACTED}`);
    expect(split('ab12cd34ef 56gh78 ab12cd34')).toBe(`${REDACTED} ${REDACTED} ab12cd34`);
    expect(createScrubber([])('ab12cd34ef56gh78')).toBe('ab12cd34ef56gh78');
  });

  it('still masks a list used again after many others', () => {
    const value = 'first-list-secret-9f8e7d';
    expect(createScrubber([value])(value)).toBe(REDACTED);
    for (let i = 0; i < 40; i++) createScrubber([`${value}-${i}`]);
    expect(createScrubber([value])(`a ${value} b`)).toBe(`a ${REDACTED} b`);
  });
});

describe('encodings of a secret', () => {
  const scrub = createScrubber([SECRET]);
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  const urlSafe = (text: string) => b64(text).replace(/\+/g, '-').replace(/\//g, '_');

  it.each([
    ['base64', b64(SECRET)],
    ['base64 without padding', b64(SECRET).replace(/=+$/, '')],
    ['URL-safe base64', urlSafe(`${SECRET}??>`)],
    ['base64 of `echo $TOKEN` (a trailing newline)', b64(`${SECRET}\n`)],
    ['base64 of the value after one byte', b64(`x${SECRET}\n`)],
    ['base64 of the value after two bytes', b64(`xy${SECRET}\n`)],
    ['base64 of the value inside JSON', b64(JSON.stringify({ token: SECRET }))],
    ['URL-safe base64 after two bytes', urlSafe(`~~${SECRET}~~`)],
    ['hex (xxd -p)', Buffer.from(`${SECRET}\n`).toString('hex')],
    ['upper-case hex', Buffer.from(SECRET).toString('hex').toUpperCase()],
    ['URL encoding', encodeURIComponent(`${SECRET}/+ &`)],
    ['reversed (rev)', [...SECRET].reverse().join('')],
  ])('masks %s', (_name, encoded) => {
    const shown = scrub(`out: ${encoded} end`);
    expect(shown).toContain(REDACTED);
    // Whatever is left around the mask is no longer the whole encoding.
    expect(shown).not.toContain(encoded);
  });

  it('masks URL encoding of a value with characters that need escaping', () => {
    const value = 'p@ss w/rd+key=1&x';
    const scrubbed = createScrubber([value])(`curl "https://x.test/?k=${encodeURIComponent(value)}"`);
    expect(scrubbed).toBe('curl "https://x.test/?k=[REDACTED]"');
  });

  it('masks base64 and hex wrapped over several lines (base64 -w, xxd -p)', () => {
    const long = 'sk-ant-api03-' + 'q7Rw9xYz2AbCdEfGh1JkLmNoPqRsTuVwXyZ0123456789abcdefghij';
    const wrapped = (text: string, width: number) => text.match(new RegExp(`.{1,${width}}`, 'g'))!.join('\n');
    const scrubLong = createScrubber([long]);
    const base64 = wrapped(b64(`${long}\n`), 76);
    const hex = wrapped(Buffer.from(`${long}\n`).toString('hex'), 60);
    expect(base64.split('\n').length).toBeGreaterThan(1);
    for (const text of [base64, hex]) {
      const shown = scrubLong(text);
      expect(shown).toContain(REDACTED);
      expect(shown.replace(/\n/g, '').length).toBeLessThan(40);
    }
  });

  it('masks a value split by NUL or invisible characters that would still read whole', () => {
    expect(scrub(`a ${SECRET.slice(0, 5)}\u0000${SECRET.slice(5)} b`)).toBe('a [REDACTED] b');
    expect(scrub(`a ${SECRET.slice(0, 5)}\u200b${SECRET.slice(5, 9)}\u00ad${SECRET.slice(9)} b`)).toBe(
      'a [REDACTED] b',
    );
  });

  it('masks multi-byte values and their encodings', () => {
    const value = 'pässwörd-😀-token';
    const scrubUtf8 = createScrubber([value]);
    expect(scrubUtf8(`x ${value} y`)).toBe('x [REDACTED] y');
    expect(scrubUtf8(Buffer.from(`${value}\n`).toString('base64'))).toContain(REDACTED);
    expect(scrubUtf8(Buffer.from(value).toString('hex'))).toBe(REDACTED);
    expect(scrubUtf8(`x ${[...value].reverse().join('')} y`)).toBe('x [REDACTED] y');
  });

  it('scrubs 1 MB of output with 50 secrets quickly', () => {
    const secrets = Array.from(
      { length: 50 },
      (_, i) => `secret-${i}-${'k'.repeat(i % 7)}-${i * 7919}-value`,
    );
    const many = createScrubber(secrets);
    const next = random(42);
    let text = '';
    while (text.length < 1024 * 1024) {
      text += `line ${text.length} of ordinary output: building module ${Math.floor(next() * 1e6)}\n`;
      if (next() < 0.01) text += `leak ${secrets[Math.floor(next() * 50)]} and ${b64(secrets[3]!)}\n`;
    }
    const started = performance.now();
    const shown = many(text);
    const elapsed = performance.now() - started;
    for (const secret of secrets) expect(shown).not.toContain(secret);
    expect(shown).toContain('building module');
    expect(elapsed).toBeLessThan(5000);
    // The streamed way is as fast: 64 KiB chunks, as a pipe delivers them.
    const stream = many.stream();
    const startedStream = performance.now();
    let streamedText = '';
    for (let i = 0; i < text.length; i += 65536) streamedText += stream.write(text.slice(i, i + 65536));
    streamedText += stream.end();
    expect(performance.now() - startedStream).toBeLessThan(5000);
    expect(streamedText).toBe(shown);
  });
});

describe('short secret values', () => {
  it('masks every non-empty value, the short ones only as whole tokens', () => {
    const scrub = createScrubber(['abc', '', '1', 'true']);
    expect(scrub('abc 1 is true')).toBe('[REDACTED] [REDACTED] is [REDACTED]');
    expect(scrub('abcd 10 is truest, v1.2, _abc')).toBe('abcd 10 is truest, v1.2, _abc');
    expect(scrub('key=abc;')).toBe('key=[REDACTED];');
  });

  it('does not shred words that merely contain a short value', () => {
    const scrub = createScrubber(['a1']);
    expect(scrub('data1 a1b ba1 a1_ a1')).toBe('data1 a1b ba1 a1_ [REDACTED]');
  });

  it('masks the whole-token encodings of a short value when they are long enough', () => {
    const scrub = createScrubber(['hunt2']);
    expect(scrub(`x ${Buffer.from('hunt2').toString('base64')} y`)).toBe('x [REDACTED] y');
    expect(scrub(`x ${Buffer.from('hunt2').toString('hex')} y`)).toBe('x [REDACTED] y');
    // The reversed value and the short encodings of `1` (`31`, `MQ==`) would collide too often.
    expect(scrub('x 2tnuh y')).toBe('x 2tnuh y');
    expect(createScrubber(['1'])('1 of 31 MQ== MQ')).toBe('[REDACTED] of 31 MQ== MQ');
  });

  it('treats values of 6 characters and more as matches anywhere', () => {
    expect(createScrubber(['abcdef'])('xxabcdefxx')).toBe('xx[REDACTED]xx');
    expect(createScrubber(['abcde'])('xxabcdexx')).toBe('xxabcdexx');
  });
});

describe('a stream scrubber', () => {
  const scrub = createScrubber([SECRET, 'a1']);

  it('masks a secret printed in two pieces (two reads, two feed items)', () => {
    const shown = streamed(scrub, ['token=sk-li', 've-7f3a9c2e5b1d done\n']);
    expect(shown).toEqual(['token=', '[REDACTED] done\n', '']);
    expect(shown.join('')).not.toContain('sk-li');
  });

  it('masks a secret printed one character at a time', () => {
    const shown = streamed(scrub, [...`echo ${SECRET}\n`]);
    expect(shown.join('')).toBe('echo [REDACTED]\n');
  });

  it('shows ordinary output at once and holds back only a possible secret prefix', () => {
    const stream = scrub.stream();
    expect(stream.write('compiled 12 files\n')).toBe('compiled 12 files\n');
    expect(stream.write('waiting for input> ')).toBe('waiting for input> ');
    expect(stream.write('value sk-live')).toBe('value ');
    // The stream ends (the shell exits): the held-back prefix is shown.
    expect(stream.end()).toBe('sk-live');
    expect(stream.end()).toBe('');
  });

  it('masks a short value split across writes, and waits for the character after it', () => {
    const stream = scrub.stream();
    expect(stream.write('x a')).toBe('x ');
    expect(stream.write('1')).toBe('');
    expect(stream.write('b ')).toBe('a1b ');
    expect(stream.write('a1')).toBe('');
    expect(stream.write('\n')).toBe('[REDACTED]\n');
  });

  it('masks a URL password split across writes', () => {
    const urls = createScrubber([]);
    expect(streamed(urls, ['git clone https://x:ghp_unkno', 'wn123@host/r.git\n']).join('')).toBe(
      'git clone https://x:[REDACTED]@host/r.git\n',
    );
    expect(streamed(urls, ['git clone https', '://x:ghp_unknown123@host/r.git\n']).join('')).toBe(
      'git clone https://x:[REDACTED]@host/r.git\n',
    );
  });

  it('does not hold back a URL that ends with a port', () => {
    const stream = createScrubber([]).stream();
    expect(stream.write('ready at http://localhost:3000')).toBe('ready at http://localhost:3000');
    expect(stream.write(' and https://user:pa')).toBe(' and ');
    expect(stream.write('ss@host')).toBe('https://user:[REDACTED]@host');
  });

  it('masks encodings split across writes', () => {
    const encoded = Buffer.from(`${SECRET}\n`).toString('base64');
    const shown = streamed(scrub, [`out ${encoded.slice(0, 9)}`, `${encoded.slice(9)} done\n`]);
    expect(shown.join('')).toContain(REDACTED);
    expect(shown.join('')).not.toContain(encoded.slice(0, 9));
  });

  it('shows the same text as the one-shot scrubber, however the stream is cut', () => {
    const scrubMany = createScrubber([SECRET, 'other-Secret-Value', 'a1', 'pw']);
    const text = [
      `export TOKEN=${SECRET}\n`,
      `curl -H "Authorization: Bearer ${SECRET}" https://user:${SECRET}@example.test/a1\n`,
      `${Buffer.from(`${SECRET}\n`).toString('base64')}\n`,
      `${Buffer.from(`${SECRET}\n`).toString('hex')}\n`,
      `pw a1 data1 ${[...'other-Secret-Value'].reverse().join('')} 😀 done\n`,
      `${encodeURIComponent('other-Secret-Value')}pw\n`,
    ].join('');
    const whole = scrubMany(text);
    expect(whole).not.toContain(SECRET);
    const next = random(7);
    for (let round = 0; round < 300; round++) {
      const pieces: string[] = [];
      for (let at = 0; at < text.length;) {
        const size = 1 + Math.floor(next() * (round % 3 === 0 ? 4 : 40));
        pieces.push(text.slice(at, at + size));
        at += size;
      }
      expect(streamed(scrubMany, pieces).join('')).toBe(whole);
    }
  });
});

describe('text the database can store', () => {
  it('drops NUL and replaces lone surrogates, keeping pairs', () => {
    const scrub = createScrubber([]);
    expect(scrub('a\u0000b')).toBe('ab');
    expect(scrub('x\ud800y\udc00z 😀')).toBe('x\ufffdy\ufffdz 😀');
    // A pair split across writes stays a pair.
    expect(streamed(scrub, ['a \ud83d', '\ude00 b']).join('')).toBe('a 😀 b');
  });
});
