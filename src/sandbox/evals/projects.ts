import type { Hono } from 'hono';
import { z } from 'zod';
import { jsonBody } from '../body.js';
import type { SandboxContext, SandboxEnv } from '../types.js';
import { evalOwner, evalTables, notFound } from './access.js';
import { DescriptionSchema, NameSchema, parseWith } from './input.js';
import { newId, type Project } from './store.js';
import { list, projectView } from './views.js';

const Settings = z.record(z.string(), z.unknown()).nullable().optional();
const CreateProject = z.object({ name: NameSchema, description: DescriptionSchema, settings: Settings });
const UpdateProject = z.object({
  name: NameSchema.optional(),
  description: DescriptionSchema,
  settings: Settings,
});

/** The project experiments go to when they name none (spec 2 §4.11), made on first use. */
export function defaultProject(ctx: SandboxContext, owner: string): Project {
  const projects = evalTables(ctx).projects;
  const existing = projects.list(owner).find((p) => p.isDefault);
  if (existing) return existing;
  const now = ctx.now();
  return projects.put({
    id: newId(ctx.state, 'evalproj_'),
    owner,
    name: 'Workbench',
    description: 'Default project for experiments made without a project_id.',
    settings: {},
    createdAt: now,
    updatedAt: now,
    isDefault: true,
  });
}

/** `/api/v1/evals/projects` (spec 2 §4.11). */
export function register(app: Hono<SandboxEnv>, ctx: SandboxContext, base: string): void {
  const projects = evalTables(ctx).projects;
  const find = (owner: string, id: string): Project => {
    const project = projects.get(owner, id);
    if (!project) throw notFound('project', id);
    return project;
  };

  app.get(`${base}/projects`, (c) => {
    const owner = evalOwner(c, ctx);
    return c.json(list(projects.list(owner).map(projectView)));
  });

  app.post(`${base}/projects`, (c) => {
    const owner = evalOwner(c, ctx);
    const body = parseWith(CreateProject, jsonBody(c));
    const now = ctx.now();
    const project = projects.put({
      id: newId(ctx.state, 'evalproj_'),
      owner,
      name: body.name,
      description: body.description ?? null,
      settings: body.settings ?? {},
      createdAt: now,
      updatedAt: now,
      isDefault: false,
    });
    return c.json(projectView(project), 201);
  });

  app.get(`${base}/projects/:id`, (c) => c.json(projectView(find(evalOwner(c, ctx), c.req.param('id')))));

  app.patch(`${base}/projects/:id`, (c) => {
    const project = find(evalOwner(c, ctx), c.req.param('id'));
    const body = parseWith(UpdateProject, jsonBody(c));
    if (body.name !== undefined) project.name = body.name;
    if (body.description !== undefined) project.description = body.description;
    if (body.settings !== undefined) project.settings = body.settings ?? {};
    project.updatedAt = ctx.now();
    return c.json(projectView(project));
  });

  app.delete(`${base}/projects/:id`, (c) => {
    const owner = evalOwner(c, ctx);
    const project = find(owner, c.req.param('id'));
    projects.delete(owner, project.id);
    return c.json({ deleted: true, id: project.id });
  });
}
