import { MAX_IMAGES_PER_MESSAGE } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { acceptImages, readImageFile, stripDataUrl, TOO_MANY_IMAGES } from './image-files';

const file = (type: string, size = 10) => ({ type, size });

describe('images', () => {
  it('takes only image/* files the API accepts', () => {
    const png = file('image/png');
    expect(acceptImages(0, [png, file('text/plain'), file('application/pdf')])).toEqual({
      accepted: [png],
      error: null,
    });
    expect(acceptImages(0, [file('image/svg+xml')]).error).toBe(
      'Only PNG, JPEG, GIF and WebP images can be attached',
    );
    expect(acceptImages(0, [file('image/jpeg', 6 * 1024 * 1024)]).error).toBe(
      'Images must be 5 MB or smaller',
    );
  });

  it(`stops at ${MAX_IMAGES_PER_MESSAGE} images in all`, () => {
    expect(MAX_IMAGES_PER_MESSAGE).toBe(10);
    const many = Array.from({ length: 5 }, () => file('image/webp'));
    expect(acceptImages(7, many).accepted).toHaveLength(3);
    expect(acceptImages(7, many).error).toBe(TOO_MANY_IMAGES);
    expect(acceptImages(10, many).accepted).toHaveLength(0);
  });

  it('reads a file as base64 without the data: prefix', async () => {
    expect(stripDataUrl('data:image/png;base64,AAAA')).toBe('AAAA');
    const image = new File([new Uint8Array([104, 105])], 'hi.png', { type: 'image/png' });
    await expect(readImageFile(image)).resolves.toEqual({ data: 'aGk=', type: 'image/png', name: 'hi.png' });
    await expect(readImageFile(image, 'pasted-image')).resolves.toMatchObject({ name: 'pasted-image' });
  });
});
