import { fileURLToPath } from 'node:url';
import { InputError } from '../errors.js';

const FILE_URI = /^file:/i;

/**
 * The local path a `file:` URI names (clients often hand files over as `file:///…`), percent-encoding
 * decoded; any other reference is returned as given. The path is then judged like any other path, so
 * a URI grants nothing a path would not. A URI naming another machine (`file://host/…` off Windows)
 * or an encoded separator is refused: it names no file this server could read.
 */
export function pathOfFileUri(ref: string, argument: string): string {
  if (!FILE_URI.test(ref)) return ref;
  try {
    return fileURLToPath(ref);
  } catch {
    throw new InputError(`\`${argument}\`: ${ref} is not a file URI of this machine.`, {
      fix: 'Pass file:///absolute/path (or the plain path), an https URL or a data: URL.',
      param: argument,
    });
  }
}
