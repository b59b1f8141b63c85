import { useState, type ClipboardEvent } from 'react';
import { MAX_IMAGES_PER_MESSAGE } from '@tandem/shared';
import {
  acceptImages,
  PASTED_IMAGE_NAME,
  readImageFile,
  TOO_MANY_IMAGES,
  type ImageAttachment,
} from './image-files';

/**
 * Images attached to a message, by picker or paste (workspace §5), shared by the new-agent form
 * and the workspace's message box. `onChange` sees every new list (the box keeps it per agent).
 */
export function useImageAttachments(
  initial: ImageAttachment[] = [],
  onChange?: (images: ImageAttachment[]) => void,
) {
  const [images, setImagesState] = useState<ImageAttachment[]>(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const setImages = (update: (current: ImageAttachment[]) => ImageAttachment[]) =>
    setImagesState((current) => {
      const next = update(current);
      onChange?.(next);
      return next;
    });

  const add = async (files: File[], name?: string) => {
    const { accepted, error } = acceptImages(images.length, files);
    setProblem(error);
    try {
      const read = await Promise.all(accepted.map((file) => readImageFile(file, name ?? file.name)));
      setImages((current) => [...current, ...read]);
    } catch (error) {
      console.warn('Could not read an image', error);
    }
  };

  /** Pasted images are named 'pasted-image'; pasted text is left to the text field. */
  const onPaste = (event: ClipboardEvent<HTMLElement>) => {
    const files = Array.from(event.clipboardData.files).filter((file) => file.type.startsWith('image/'));
    if (!files.length) return;
    event.preventDefault();
    void add(files, PASTED_IMAGE_NAME);
  };

  return {
    images,
    problem,
    add,
    onPaste,
    /** An image made here (a preview screenshot), within the per-message limit. */
    append: (image: ImageAttachment) => {
      if (images.length >= MAX_IMAGES_PER_MESSAGE) {
        setProblem(TOO_MANY_IMAGES);
        return;
      }
      setImages((current) => [...current, image]);
    },
    remove: (index: number) => setImages((current) => current.filter((_, i) => i !== index)),
    clear: () => {
      setImages(() => []);
      setProblem(null);
    },
    restore: (previous: ImageAttachment[]) => setImages(() => previous),
  };
}
