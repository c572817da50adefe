/**
 * video_generate / video_status / video_extend / speech_generate / music_generate: the video or
 * audio plays inline; a job still running shows its progress and is resumed from here.
 */
import { h, plain, record, startView, str, type ToolResult, usd, type View } from './shared/view.js';

const main = document.getElementById('view')!;

startView('player', (result, view) => draw(result.structuredContent ?? {}, result, view));

async function draw(out: Record<string, unknown>, result: ToolResult, view: View): Promise<void> {
  // The platform writes statuses in either case (COMPLETED, IN_PROGRESS, completed, pending).
  const status = (str(out.status) ?? 'completed').toLowerCase();
  const runId = str(out.run_id);
  const video = isVideo(view, out);
  if (!DONE.has(status) && runId) return pending(out, runId, video, view);
  if (!OK.has(status)) {
    return plain(main, result, `The job ended: ${status}.`);
  }
  const uri = str(out.uri);
  const url = str(out.video_url);
  if (!uri && !url) return plain(main, result, 'Nothing to play in this result.');
  // The platform's own URL for a video (its origin is declared to the host), else the caller's saved copy.
  const src = video && url ? url : await view.media(uri!);
  const player = h(video ? 'video' : 'audio', { controls: '', preload: 'metadata', src, id: 'media' });
  if (video) player.setAttribute('playsinline', '');
  player.style.width = '100%';
  main.replaceChildren(
    player,
    h('p', { class: 'muted', id: 'meta' }, costLine(out), runId ? ` · run ${runId}` : ''),
  );
}

const OK = new Set(['completed', 'succeeded']);
const DONE = new Set([...OK, 'failed', 'error', 'cancelled', 'canceled', 'expired']);

/** A video tool's result (the host names the tool; a video result also has a cost estimate object). */
function isVideo(view: View, out: Record<string, unknown>): boolean {
  const tool = view.app.getHostContext()?.toolInfo?.tool.name;
  return tool
    ? tool.startsWith('video_')
    : 'video_url' in out || typeof record(out.cost).estimate === 'number';
}

function costLine(out: Record<string, unknown>): string {
  if (typeof out.cost === 'number') return `Cost ${usd(out.cost)}`;
  const cost = record(out.cost);
  if (typeof cost.final === 'number') return `Cost ${usd(cost.final)}`;
  if (typeof cost.estimate === 'number') return `Estimated ${usd(cost.estimate)}`;
  return '';
}

/** A running job: its progress, and a resume that waits on it (video_status, or job_status for audio). */
function pending(out: Record<string, unknown>, runId: string, video: boolean, view: View): void {
  const progress = typeof out.progress === 'number' ? out.progress : undefined;
  const bar = h('progress', { max: '100', id: 'progress' });
  if (progress !== undefined) bar.setAttribute('value', String(progress));
  const note = h(
    'p',
    { class: 'status', role: 'status' },
    `Still ${(str(out.status) ?? 'running').toLowerCase().replace('_', ' ')}. ${costLine(out)}`,
  );
  const resume = h('button', { id: 'resume', type: 'button', class: 'primary' }, 'Check again');
  const tool = video ? 'video_status' : 'job_status';
  resume.addEventListener('click', async () => {
    resume.setAttribute('disabled', '');
    note.textContent = `Waiting with ${tool}…`;
    try {
      const next = await view.call(tool, { run_id: runId, max_wait_s: 30 });
      await draw(next, { structuredContent: next }, view);
    } catch (error) {
      note.textContent = error instanceof Error ? error.message : String(error);
      resume.removeAttribute('disabled');
    }
  });
  main.replaceChildren(
    h('h1', {}, video ? 'Video in progress' : 'Audio in progress'),
    bar,
    note,
    h('div', { class: 'row' }, resume, h('span', { class: 'mono muted' }, runId)),
  );
}
