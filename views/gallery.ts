/** image_generate / image_edit: the images at their size, full size on click, the prompt and cost, vary and edit. */
import { h, list, plain, record, startView, str, type ToolResult, usd, type View } from './shared/view.js';

const main = document.getElementById('view')!;
const grid = h('div', { class: 'grid' });
const status = h('p', { class: 'status', role: 'status' });
const style = h(
  'style',
  {},
  '.grid{display:flex;flex-wrap:wrap;gap:8px}.grid img{max-width:100%;height:auto;cursor:zoom-in;border-radius:6px;border:1px solid var(--line)}' +
    'dialog{max-width:96vw;max-height:96vh;padding:0;border:0;background:var(--bg)}dialog img{display:block;max-width:none}',
);
const zoom = h('dialog', { id: 'full' }) as HTMLDialogElement;
zoom.addEventListener('click', () => zoom.close());
document.head.append(style);

startView('gallery', async (result, view) => {
  const images = list(result.structuredContent?.images);
  if (!images.length) return plain(main, result, 'No images in this result.');
  main.replaceChildren(grid, status, zoom);
  grid.replaceChildren();
  await show(result, view);
  main.insertBefore(caption(result, view), grid);
  main.append(actions(view));
});

async function show(result: ToolResult, view: View): Promise<void> {
  for (const image of list(result.structuredContent?.images)) {
    const uri = str(record(image).uri);
    if (!uri) continue;
    const img = h('img', {
      alt: str(view.input.prompt) ?? 'generated image',
      'data-uri': uri,
    }) as HTMLImageElement;
    img.src = await view.media(uri);
    img.addEventListener('click', () => {
      zoom.replaceChildren(h('img', { src: img.src, alt: img.alt }));
      zoom.showModal();
    });
    // Shown at its own size, or narrower where the view is narrower.
    img.addEventListener('load', () => {
      img.width = img.naturalWidth;
      img.style.aspectRatio = `${img.naturalWidth} / ${img.naturalHeight}`;
    });
    grid.append(img);
  }
}

function caption(result: ToolResult, view: View): HTMLElement {
  const cost = result.structuredContent?.cost;
  return h(
    'div',
    {},
    h('p', { id: 'prompt' }, str(view.input.prompt) ?? ''),
    h('p', { class: 'muted', id: 'cost' }, typeof cost === 'number' ? `Cost ${usd(cost)}` : ''),
  );
}

/** Vary: the same prompt and model with a new seed. Edit: image_edit of the first image with a prompt. */
function actions(view: View): HTMLElement {
  const edit = h('input', {
    id: 'edit-prompt',
    placeholder: 'Edit with a prompt',
    'aria-label': 'Edit prompt',
  });
  const vary = h('button', { id: 'vary', type: 'button' }, 'Vary');
  const apply = h('button', { id: 'edit', type: 'button', class: 'primary' }, 'Edit');
  const run = async (tool: string, args: Record<string, unknown>) => {
    status.textContent = `Calling ${tool}…`;
    try {
      const out = await view.call(tool, args);
      await show({ structuredContent: out }, view);
      status.textContent = `${tool} done${typeof out.cost === 'number' ? `, cost ${usd(out.cost)}` : ''}.`;
    } catch (error) {
      status.textContent = error instanceof Error ? error.message : String(error);
    }
  };
  vary.addEventListener('click', () => {
    // An edit is varied by asking again; a generation with a new seed.
    if (view.input.images) return void run('image_edit', view.input);
    const { model, prompt, resolution, aspect_ratio } = view.input;
    run('image_generate', {
      model,
      prompt,
      resolution,
      aspect_ratio,
      seed: Math.floor(Math.random() * 2 ** 31),
    });
  });
  apply.addEventListener('click', () => {
    const prompt = (edit as HTMLInputElement).value.trim();
    const first = grid.querySelector('img')?.getAttribute('data-uri');
    if (!prompt || !first) {
      status.textContent = 'Write what to change first.';
      return;
    }
    run('image_edit', { prompt, images: [first] });
  });
  return h('div', { class: 'row' }, vary, edit, apply);
}
