import { InputError } from '../errors.js';
import { type Files, mb } from './files.js';
import { mediaTypeOf } from './types.js';

/** Spec limits on inline uploads (spec 2 §8): larger inputs go by URL. */
export const LIMITS = {
  /** Direct transcription upload. */
  transcriptionUpload: 3 * 1_048_576,
  /** Video image or video input sent inline. */
  videoInput: 4 * 1_048_576,
  /** Image references (largest `max_bytes` the image endpoints publish). */
  imageReference: 31_457_280,
  /** Image edits: "strict", size not published; kept with the other inline uploads. */
  imageEdit: 4 * 1_048_576,
} as const;

/** A media input as the caller gave it: a URL to pass on, or bytes (from a data URL or a local file). */
export type MediaInput =
  | { kind: 'url'; url: string }
  | {
      kind: 'bytes';
      source: 'file' | 'data_url';
      data: Buffer;
      mimeType: string;
      name: string;
      dataUrl: string;
    };

const DATA_URL = /^data:([\w.+/-]+)?(;[\w=.-]+)*;base64,(.*)$/s;

/**
 * Reads an `https://` URL, a `data:` URL, one of the caller's `orbit://media/` ids or a local path
 * (inside the allowed folders, and never for a remote client unless the operator shared folders);
 * anything above `maxBytes` is refused before a byte is sent, with the advice to pass a URL.
 */
export async function readMediaInput(
  ref: string,
  files: Files,
  options: { maxBytes: number; purpose: string; argument: string },
): Promise<MediaInput> {
  const value = ref.trim();
  if (/^https?:\/\//i.test(value)) return { kind: 'url', url: value };
  const tooBig = (bytes: number) =>
    new InputError(
      `\`${options.argument}\` is ${mb(bytes)}; ${options.purpose} takes at most ${mb(options.maxBytes)} inline.`,
      {
        fix: 'Upload the file somewhere public and pass its https URL instead.',
        param: options.argument,
      },
    );
  if (value.startsWith('data:')) {
    const match = DATA_URL.exec(value);
    if (!match) {
      throw new InputError(`\`${options.argument}\` is not a base64 data URL.`, {
        fix: 'Pass data:<type>;base64,<data>, an https URL, or a local file path.',
        param: options.argument,
      });
    }
    const encoded = match[3] ?? '';
    // The decoded size, known before decoding.
    if (Math.floor((encoded.length * 3) / 4) > options.maxBytes)
      throw tooBig(Math.floor((encoded.length * 3) / 4));
    const data = Buffer.from(encoded, 'base64');
    const type = mediaTypeOf(data, match[1]);
    return {
      kind: 'bytes',
      source: 'data_url',
      data,
      mimeType: type.mimeType,
      name: `input.${type.ext}`,
      dataUrl: value,
    };
  }
  const file = await files.read(value, options);
  return {
    kind: 'bytes',
    source: 'file',
    data: file.data,
    mimeType: file.mimeType,
    name: file.name,
    dataUrl: `data:${file.mimeType};base64,${file.data.toString('base64')}`,
  };
}
