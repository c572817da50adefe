import { readFile } from 'node:fs/promises';
import { findSaved, listSaved } from '../src/files/files.js';
import { InputError } from '../src/http/errors.js';
import { defineResource } from '../src/mcp/define-resource.js';
import { URI_SCHEME } from '../src/word.js';

export default defineResource({
  uriTemplate: `${URI_SCHEME}://media/{id}`,
  name: 'media',
  title: 'A media file this server produced',
  description: 'An image, audio, video or transcript saved under the output directory, by its content id.',
  mimeType: 'application/octet-stream',
  async list({ files }) {
    return (await listSaved(files.outputDir)).map(({ id, name }) => ({
      uri: `${URI_SCHEME}://media/${id}`,
      name,
    }));
  },
  async read(params, { files }) {
    const found = await findSaved(files.outputDir, params.id ?? '');
    if (!found) {
      throw new InputError(`No saved media "${params.id}".`, {
        fix: `List resources to see the ${URI_SCHEME}://media files.`,
      });
    }
    const data = await readFile(found.path);
    return found.mimeType === 'application/json' || found.mimeType.startsWith('text/')
      ? { text: data.toString('utf8'), mimeType: found.mimeType }
      : { blob: data.toString('base64'), mimeType: found.mimeType };
  },
});
