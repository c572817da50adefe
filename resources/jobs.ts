import { InputError } from '../src/errors.js';
import { defineResource } from '../src/mcp/define-resource.js';
import { URI_SCHEME } from '../src/word.js';

export default defineResource({
  uriTemplate: `${URI_SCHEME}://jobs/{id}`,
  name: 'job',
  title: 'A long job',
  description:
    'Last known state of a video, speech or transcription job: status, progress, cost, result, next call.',
  mimeType: 'application/json',
  async list({ jobs }) {
    return (await jobs.list()).slice(0, 20).map((job) => ({
      uri: `${URI_SCHEME}://jobs/${job.id}`,
      name: `${job.kind} ${job.id}`,
      title: `${job.kind} ${job.status}`,
    }));
  },
  async read(params, { jobs }) {
    const job = await jobs.get(params.id ?? '');
    if (!job) {
      throw new InputError(`No job "${params.id}" is known to this server.`, {
        fix: 'Video runs started elsewhere: call video_recent or video_status with the run id.',
      });
    }
    // What a later call needs to resume (a ticket) is the server's, not the reader's.
    const { resume: _resume, ...shown } = job;
    return { text: JSON.stringify(shown) };
  },
});
