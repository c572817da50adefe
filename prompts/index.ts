import type { AnyPrompt } from '../src/mcp/define-prompt.js';
import checkSpending from './check_spending.js';
import compareModels from './compare_models.js';
import getStarted from './get_started.js';
import narratedClip from './narrated_clip.js';
import summarizeVideo from './summarize_video.js';

/** Every prompt, in the order prompts/list shows them. Adding one: a file `prompts/<name>.ts` and a line here. */
export const prompts: readonly AnyPrompt[] = [
  compareModels,
  summarizeVideo,
  narratedClip,
  checkSpending,
  getStarted,
];
