import { InputError } from '../src/errors.js';
import { notePayload } from '../src/heap.js';
import { defineResource } from '../src/mcp/define-resource.js';
import { URI_SCHEME } from '../src/word.js';

export default defineResource({
  uriTemplate: `${URI_SCHEME}://media/{id}`,
  name: 'media',
  title: 'A media file this server produced',
  description: 'An image, audio, video or transcript this server saved for you, by its id.',
  mimeType: 'application/octet-stream',
  async list({ files }) {
    return (await files.list()).map((file) => ({ uri: file.uri, name: file.id, title: file.mimeType }));
  },
  async read(params, { files }) {
    // Only files this server wrote for this caller, still the very file written: a name planted
    // or swapped in the output folder is never served.
    const found = await files.open(params.id ?? '');
    if (!found) {
      throw new InputError(`No saved media "${params.id}".`, {
        fix: `List resources to see your ${URI_SCHEME}://media files.`,
      });
    }
    const { file, data } = found;
    notePayload(data.length);
    return file.mimeType === 'application/json' || file.mimeType.startsWith('text/')
      ? { text: data.toString('utf8'), mimeType: file.mimeType }
      : { blob: data.toString('base64'), mimeType: file.mimeType };
  },
});
