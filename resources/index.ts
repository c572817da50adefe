import type { ResourceDefinition } from '../src/mcp/define-resource.js';
import dataEndpoints from './data-endpoints.js';
import jobs from './jobs.js';
import media from './media.js';
import model from './model.js';
import models from './models.js';
import skills from './skills.js';
import usage from './usage.js';
import views from './views.js';

/** Every resource; the more specific template first, since templates are matched in order. */
export const resources: readonly ResourceDefinition[] = [
  model,
  models,
  media,
  jobs,
  usage,
  dataEndpoints,
  skills,
  views,
];
