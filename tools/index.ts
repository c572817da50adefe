import type { AnyTool } from '../src/mcp/define-tool.js';
import auth_login from './account/auth_login.js';
import auth_logout from './account/auth_logout.js';
import auth_status from './account/auth_status.js';
import image_edit from './media/image_edit.js';
import image_generate from './media/image_generate.js';
import music_generate from './media/music_generate.js';
import speech_generate from './media/speech_generate.js';
import transcribe from './media/transcribe.js';
import transcribe_video_links from './media/transcribe_video_links.js';
import video_extend from './media/video_extend.js';
import video_generate from './media/video_generate.js';
import video_recent from './media/video_recent.js';
import video_status from './media/video_status.js';
import models_get from './models/models_get.js';
import models_list from './models/models_list.js';
import web_search from './search/web_search.js';
import chat from './text/chat.js';
import tokens_count from './text/tokens_count.js';

/** Every tool, in the order tools/list shows them. Adding a tool: one file and one line here. */
export const tools: readonly AnyTool[] = [
  models_list,
  models_get,
  chat,
  tokens_count,
  web_search,
  image_generate,
  image_edit,
  video_generate,
  video_status,
  video_extend,
  video_recent,
  speech_generate,
  music_generate,
  transcribe,
  transcribe_video_links,
  auth_status,
  auth_login,
  auth_logout,
];
